# frozen_string_literal: true

module Sketchbridge
  module ExportStl
    # 0.005 inch, written in mm here because the CNC shop thinks in mm
    TESSELLATION_TOLERANCE = 0.127.mm

    # UI::WebDialog was dropped (blank on macOS); HtmlDialog only.
    def self.show_dialog
      dialog = UI::HtmlDialog.new(dialog_title: 'Export STL', preferences_key: 'sketchbridge_export',
                                  width: 420, height: 300, style: UI::HtmlDialog::STYLE_DIALOG)
      dialog.set_file(File.join(__dir__, 'dialog', 'export.html'))
      dialog.add_action_callback('export') do |_ctx, opts|
        export(Sketchup.active_model, opts['offset_mm'].to_f.mm)
      end
      dialog.show
    end

    def self.export(model, offset)
      model.start_operation('Sketchbridge: prepare STL', true)
      model.selection.grep(Sketchup::ComponentInstance).each do |inst|
        inst.set_attribute('sketchbridge', 'export_offset', offset.to_f)
      end
      model.commit_operation
      notify("Exported with tolerance #{TESSELLATION_TOLERANCE.to_mm.round(3)} mm")
    rescue StandardError => e
      model.abort_operation
      notify("Export failed: #{e.message}")
    end

    def self.notify(text)
      UI::Notification.new(Sketchbridge::EXTENSION, text).show
    end
  end
end
