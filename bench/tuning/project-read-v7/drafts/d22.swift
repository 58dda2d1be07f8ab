import Foundation
import Observation

@Observable
@MainActor
final class SyncStatusModel {
    var pendingBatches = 0
    var isSyncing = false
    var lastError: String?
}

struct WorkoutSample: Encodable {
    let timestamp: Date
    let latitude: Double
    let longitude: Double
    let altitudeMeters: Double?
    let heartRateBpm: Double?
}

private struct SampleBatch: Encodable {
    let workoutID: UUID
    let sequence: Int
    let samples: [WorkoutSample]
}

enum SyncError: Error {
    case badStatus(Int)
}

/// Uploads recorded samples to our own sync API (not analytics).
struct SyncClient {
    static let batchSize = 500

    let baseURL: URL
    let session: URLSession
    let tokens: AuthTokenProvider

    func upload(workoutID: UUID, samples: [WorkoutSample], status: SyncStatusModel) async throws {
        let batches = stride(from: 0, to: samples.count, by: Self.batchSize).map {
            Array(samples[$0 ..< min($0 + Self.batchSize, samples.count)])
        }

        await MainActor.run {
            status.isSyncing = true
            status.pendingBatches = batches.count
        }

        for (index, batch) in batches.enumerated() {
            var request = URLRequest(url: baseURL.appending(path: "v2/workouts/\(workoutID.uuidString)/samples"))
            request.httpMethod = "PUT"
            request.timeoutInterval = 30
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer \(try await tokens.accessToken())", forHTTPHeaderField: "Authorization")
            request.httpBody = try JSONEncoder.sync.encode(SampleBatch(workoutID: workoutID, sequence: index, samples: batch))

            let (_, response) = try await session.data(for: request)
            let code = (response as? HTTPURLResponse)?.statusCode ?? -1
            guard (200..<300).contains(code) else {
                await MainActor.run {
                    status.isSyncing = false
                    status.lastError = "Sync failed (\(code))"
                }
                throw SyncError.badStatus(code)
            }

            await MainActor.run { status.pendingBatches -= 1 }
        }

        await MainActor.run { status.isSyncing = false }
    }
}
