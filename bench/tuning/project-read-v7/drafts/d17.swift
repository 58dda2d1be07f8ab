import Combine
import GRDB
import SwiftUI

final class RunSummaryViewModel: ObservableObject {
    @Published private(set) var workout: Workout?
    @Published private(set) var distanceKm: Double = 0
    @Published private(set) var splits: [Split] = []
    @Published private(set) var errorMessage: String?
    @Published var isLoading = false

    private var cancellables = Set<AnyCancellable>()
    private let workoutID: Workout.ID

    init(workoutID: Workout.ID) {
        self.workoutID = workoutID

        NotificationCenter.default.publisher(for: .workoutDidSync)
            .compactMap { $0.object as? Workout.ID }
            .filter { [workoutID] in $0 == workoutID }
            .receive(on: DispatchQueue.main)
            .sink { [weak self] _ in self?.load() }
            .store(in: &cancellables)
    }

    func load() {
        isLoading = true
        defer { isLoading = false }

        do {
            let (workout, splits) = try AppDatabase.shared.dbQueue.read { db -> (Workout?, [Split]) in
                let w = try Workout.fetchOne(db, id: workoutID)
                let s = try Split
                    .filter(Column("workoutId") == workoutID)
                    .order(Column("index"))
                    .fetchAll(db)
                return (w, s)
            }
            self.workout = workout
            self.splits = splits
            self.distanceKm = (workout?.distanceMeters ?? 0) / 1000
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

struct RunSummaryScreen: View {
    @StateObject private var model: RunSummaryViewModel

    init(workoutID: Workout.ID) {
        _model = StateObject(wrappedValue: RunSummaryViewModel(workoutID: workoutID))
    }

    var body: some View {
        List {
            Section {
                LabeledContent("Distance", value: String(format: "%.2f km", model.distanceKm))
                if let workout = model.workout {
                    LabeledContent("Time", value: workout.duration.formatted(.units(allowed: [.hours, .minutes, .seconds])))
                }
            }
            Section("Splits") {
                ForEach(model.splits) { SplitRow(split: $0) }
            }
        }
        .overlay { if model.isLoading { ProgressView() } }
        .onAppear { model.load() }
        .navigationTitle("Run")
    }
}
