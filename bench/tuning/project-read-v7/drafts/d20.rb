default_platform(:ios)

platform :ios do
  before_all do
    setup_ci if ENV["CI"]
  end

  desc "Unit and UI tests"
  lane :test do
    scan(
      scheme: "StrideLog",
      devices: ["iPhone 16"],
      clean: true,
      result_bundle: true
    )
  end

  desc "Build and ship to TestFlight (runs on CI)"
  lane :beta do
    ensure_git_status_clean
    match(type: "appstore", readonly: true)
    increment_build_number(
      xcodeproj: "StrideLog.xcodeproj",
      build_number: ENV.fetch("GITHUB_RUN_NUMBER")
    )
    build_app(scheme: "StrideLog", export_method: "app-store", clean: true)
    upload_to_testflight(
      skip_waiting_for_build_processing: true,
      changelog: changelog_from_git_commits(commits_count: 15, merge_commit_filtering: "exclude_merges")
    )
    upload_symbols_to_crashlytics(dsym_path: lane_context[SharedValues::DSYM_OUTPUT_PATH])
  end

  desc "Hotfix: build and upload from your own Mac when the CI queue is backed up"
  lane :hotfix_beta do
    match(type: "appstore", readonly: true)
    increment_build_number(xcodeproj: "StrideLog.xcodeproj")
    build_app(scheme: "StrideLog", export_method: "app-store")
    upload_to_testflight(skip_waiting_for_build_processing: true)
  end

  desc "Submit the latest TestFlight build for review"
  lane :release do
    deliver(
      submit_for_review: true,
      automatic_release: false,
      skip_binary_upload: true,
      precheck_include_in_app_purchases: false,
      force: true
    )
  end
end
