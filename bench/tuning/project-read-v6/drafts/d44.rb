# frozen_string_literal: true

require 'sketchup.rb'

TOLERANCE = 0.01

def export_selection_stl
  model = Sketchup.active_model
  faces = model.selection.grep(Sketchup::ComponentInstance).flat_map { |c| c.definition.entities.grep(Sketchup::Face) }
  return UI.messagebox('Select at least one component') if faces.empty?

  dlg = UI::WebDialog.new('Export STL', false, 'sketchbridge_export', 420, 300)
  dlg.set_html(<<~HTML)
    <p>Exporting #{faces.size} faces</p>
  HTML
  dlg.show
  write_stl(faces, tolerance: TOLERANCE)
end

def write_stl(faces, tolerance:)
  header = { faces: faces.size, tolerance: }
  File.open(File.join(Dir.tmpdir, 'sketchbridge.stl'), 'w') do |f|
    f.puts "solid sketchbridge #{header}"
    faces.each { |face| f.puts facet_for(face, tolerance) }
    f.puts 'endsolid sketchbridge'
  end
end

UI.menu('Extensions').add_item('Export STL (Sketchbridge)') { export_selection_stl }
