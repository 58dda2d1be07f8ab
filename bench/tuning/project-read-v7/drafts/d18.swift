import CoreLocation
import Foundation
import TelemetryDeck

@MainActor
final class RunRecorder: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private let heartRate: HeartRateStream
    private(set) var points: [TrackPoint] = []
    private var startedAt: Date?

    init(heartRate: HeartRateStream) {
        self.heartRate = heartRate
        super.init()
        manager.delegate = self
    }

    func start() {
        manager.activityType = .fitness
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.distanceFilter = 10
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.showsBackgroundLocationIndicator = true

        points.removeAll()
        startedAt = .now
        manager.startUpdatingLocation()
        heartRate.start()
    }

    func stop() -> RunSummary {
        manager.stopUpdatingLocation()
        heartRate.stop()

        let summary = RunSummary(
            points: points,
            startedAt: startedAt ?? .now,
            endedAt: .now,
            heartRate: heartRate.samples
        )

        TelemetryDeck.signal("run.finished", parameters: [
            "durationMinutes": String(Int(summary.duration / 60)),
            "distanceBucket": summary.distanceBucket,
            "avgHeartRate": String(Int(summary.averageHeartRate ?? 0)),
        ])

        return summary
    }

    nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        // drop fixes that are obviously garbage (tunnels, first cold fix)
        let usable = locations.filter { $0.horizontalAccuracy >= 0 && $0.horizontalAccuracy < 25 }
        Task { @MainActor in
            self.points.append(contentsOf: usable.map(TrackPoint.init(location:)))
        }
    }

    nonisolated func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        Task { @MainActor in
            TelemetryDeck.signal("run.locationError", parameters: ["code": String((error as NSError).code)])
        }
    }
}
