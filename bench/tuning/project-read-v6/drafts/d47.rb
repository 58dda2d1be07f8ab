# frozen_string_literal: true

require 'nokogiri'

module Sketchbridge
  module PanelAttributes
    DICT = 'SketchbridgePanel'

    def self.tag_selection(model)
      model.selection.grep(Sketchup::ComponentInstance).each do |inst|
        bb = inst.bounds
        width_mm = bb.width.to_mm.round(1)
        height_mm = bb.height.to_mm.round(1)
        inst.set_attribute(DICT, 'panelSizeMm', [width_mm, height_mm])
      end
    end

    def self.load_catalogue(path)
      doc = Nokogiri::XML(File.read(path))
      doc.xpath('//sheet').map do |s|
        { code: s['code'], thickness: s['thickness'].to_f.mm }
      end
    end

    def self.apply(model)
      model.start_operation('Sketchbridge: tag panels', true)
      tag_selection(model)
      model.commit_operation
    end
  end
end
