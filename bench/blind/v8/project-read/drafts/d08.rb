# frozen_string_literal: true

source "https://rubygems.org"

ruby "3.3.0"

gem "rails", "~> 7.1.3"
gem "pg", "~> 1.5"
gem "puma", "~> 6.4"
gem "bootsnap", require: false

# API
gem "jbuilder"
gem "rack-cors"
gem "rack-attack", "~> 6.7"
gem "devise", "~> 4.9"
gem "devise-jwt"

# background work
gem "sidekiq", "~> 7.2"
gem "sidekiq-cron", "~> 1.12"
gem "good_job", "~> 3.99"   # for the nightly batch reports, easier cron UI
gem "redis", "~> 5.1"

gem "sentry-ruby"
gem "sentry-rails"
gem "geocoder"

group :development, :test do
  gem "debug", platforms: %i[mri windows]
  gem "rspec-rails", "~> 6.1"
  gem "factory_bot_rails"
  gem "faker"
end

group :development do
  gem "rubocop-rails", require: false
  gem "annotate"
end
