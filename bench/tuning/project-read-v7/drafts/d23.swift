import Foundation
import SwiftData
import WidgetKit

/// Small cache the widget reads, so the extension never has to open the main
/// database file. One row per week.
@Model
final class WidgetSnapshot {
    @Attribute(.unique) var weekStart: Date
    var totalDistanceMeters: Double
    var runCount: Int
    var updatedAt: Date

    init(weekStart: Date, totalDistanceMeters: Double, runCount: Int, updatedAt: Date = .now) {
        self.weekStart = weekStart
        self.totalDistanceMeters = totalDistanceMeters
        self.runCount = runCount
        self.updatedAt = updatedAt
    }
}

enum WidgetSnapshotCache {
    static let container: ModelContainer = {
        let dir = FileManager.default
            .containerURL(forSecurityApplicationGroupIdentifier: "group.app.stridelog")!
        let config = ModelConfiguration(url: dir.appending(path: "widget.store"))
        return try! ModelContainer(for: WidgetSnapshot.self, configurations: config)
    }()

    @MainActor
    static func write(weekStart: Date, totalDistanceMeters: Double, runCount: Int) throws {
        let context = container.mainContext
        let descriptor = FetchDescriptor<WidgetSnapshot>(predicate: #Predicate { $0.weekStart == weekStart })

        if let existing = try context.fetch(descriptor).first {
            existing.totalDistanceMeters = totalDistanceMeters
            existing.runCount = runCount
            existing.updatedAt = .now
        } else {
            context.insert(WidgetSnapshot(weekStart: weekStart, totalDistanceMeters: totalDistanceMeters, runCount: runCount))
        }

        try context.save()
        WidgetCenter.shared.reloadTimelines(ofKind: "WeeklyDistance")
    }

    @MainActor
    static func read(weekStart: Date) -> WidgetSnapshot? {
        let descriptor = FetchDescriptor<WidgetSnapshot>(predicate: #Predicate { $0.weekStart == weekStart })
        return try? container.mainContext.fetch(descriptor).first
    }
}
