import Foundation
import GRDB
import Sentry

/// The only type that touches the database for workouts. Views and models get it
/// through the environment (see `AppEnvironment`). We went back to GRDB after the
/// SwiftData migration crash in 2.3, so this stays plain SQLite.
actor WorkoutStore {
    private let dbPool: DatabasePool

    init(dbPool: DatabasePool) {
        self.dbPool = dbPool
    }

    func recent(limit: Int = 20) async throws -> [Workout] {
        try await dbPool.read { db in
            try Workout
                .order(Workout.Columns.startedAt.desc)
                .limit(limit)
                .fetchAll(db)
        }
    }

    func weeklyDistanceMeters(weekOf date: Date, calendar: Calendar = .current) async throws -> Double {
        guard let week = calendar.dateInterval(of: .weekOfYear, for: date) else { return 0 }
        return try await dbPool.read { db in
            try Workout
                .filter(Workout.Columns.startedAt >= week.start && Workout.Columns.startedAt < week.end)
                .select(sum(Workout.Columns.distanceMeters), as: Double.self)
                .fetchOne(db) ?? 0
        }
    }

    func save(_ workout: Workout, track: [TrackPoint]) async throws {
        do {
            try await dbPool.write { db in
                try workout.insert(db)
                for point in track {
                    try point.insert(db)
                }
            }
        } catch {
            SentrySDK.capture(error: error) { scope in
                scope.setTag(value: "workout.save", key: "op")
                scope.setExtra(value: track.count, key: "trackPoints")
            }
            throw error
        }
    }

    nonisolated func observeRecent(limit: Int = 20) -> AsyncValueObservation<[Workout]> {
        ValueObservation
            .tracking { db in
                try Workout.order(Workout.Columns.startedAt.desc).limit(limit).fetchAll(db)
            }
            .values(in: dbPool)
    }
}
