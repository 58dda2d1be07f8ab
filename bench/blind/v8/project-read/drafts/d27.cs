using System;
using System.Collections.Generic;
using Newtonsoft.Json;
using Unity.Services.Analytics;
using UnityEngine;
using Hoist.Events;
using Hoist.Learners;

namespace Hoist.Telemetry
{
    /// <summary>
    /// Listens for scenario completion and sends one analytics event plus an
    /// xAPI statement to the LMS outbox.
    /// </summary>
    public class SessionReporter : MonoBehaviour
    {
        [SerializeField] private ScenarioEventChannel _scenarioChannel;
        [SerializeField] private LmsOutbox _outbox;

        private LearnerProfile _profile;

        private void OnEnable()
        {
            _profile = LearnerSession.Current;
            _scenarioChannel.Completed += OnScenarioCompleted;
        }

        private void OnDisable()
        {
            _scenarioChannel.Completed -= OnScenarioCompleted;
        }

        private void OnScenarioCompleted(ScenarioResult result)
        {
            var evt = new CustomEvent("scenario_completed")
            {
                ["learner_token"] = _profile.LearnerToken,
                ["trainee_name"] = _profile.DisplayName,
                ["site_code"] = _profile.SiteCode,
                ["scenario_id"] = result.ScenarioId,
                ["passed"] = result.Passed,
                ["placement_error_m"] = result.PlacementErrorMeters,
                ["duration_s"] = result.DurationSeconds,
            };
            AnalyticsService.Instance.RecordEvent(evt);

            var statement = new Dictionary<string, object>
            {
                ["actor"] = new { account = new { name = _profile.LearnerToken, homePage = "https://lms.hoist-training.eu" } },
                ["verb"] = new { id = result.Passed ? "http://adlnet.gov/expapi/verbs/passed" : "http://adlnet.gov/expapi/verbs/failed" },
                ["object"] = new { id = $"https://hoist-training.eu/scenarios/{result.ScenarioId}" },
                ["timestamp"] = DateTime.UtcNow.ToString("o"),
            };
            _outbox.Enqueue(JsonConvert.SerializeObject(statement));
        }
    }
}
