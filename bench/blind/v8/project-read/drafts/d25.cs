using System.Collections.Generic;
using System.Linq;
using UnityEngine;
using UnityEngine.InputSystem;
using Hoist.Crane;
using Hoist.Events;

namespace Hoist.Scenarios
{
    /// <summary>
    /// Trainee lifts the load and sets it down inside the target marker.
    /// Pass = load within tolerance and swing below the limit when released.
    /// </summary>
    public class LiftToMarkerScenario : ScenarioBase
    {
        [SerializeField] private Transform _marker;
        [SerializeField] private ScenarioEventChannel _scenarioChannel;
        [SerializeField] private InputActionReference _confirmAction;

        [SerializeField] private float _maxSwingDegrees = 4f;
        public float tolerance = 0.25f;

        private CranePhysics _crane;
        private readonly List<LoadProbe> _probes = new List<LoadProbe>();
        private bool _finished;

        private void Start()
        {
            _crane = FindObjectOfType<CranePhysics>();
            _probes.AddRange(GetComponentsInChildren<LoadProbe>());
            _confirmAction.action.Enable();
        }

        private void Update()
        {
            if (_finished) return;

            var grounded = _probes.Where(p => p.IsTouchingGround).ToList();
            if (grounded.Count < _probes.Count) return;

            if (!_confirmAction.action.WasPressedThisFrame()) return;

            float distance = Vector3.Distance(_crane.LoadPosition, _marker.position);
            float swing = _crane.CurrentSwingAngle;
            bool passed = distance <= tolerance && swing <= _maxSwingDegrees;

            _finished = true;
            _scenarioChannel.RaiseCompleted(new ScenarioResult
            {
                ScenarioId = "lift_to_marker",
                Passed = passed,
                PlacementErrorMeters = distance,
                SwingDegrees = swing,
            });
        }

        private void OnDisable()
        {
            _confirmAction.action.Disable();
        }
    }
}
