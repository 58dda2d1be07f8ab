using UnityEngine;
using UnityEngine.XR.Interaction.Toolkit;

namespace Hoist.Bootstrap
{
    /// <summary>
    /// Runs once in the boot scene: physics step and comfort defaults before
    /// any scenario loads. Values live here so QA can see them in one place.
    /// </summary>
    public class SimSettingsBootstrap : MonoBehaviour
    {
        // 72 Hz display on Quest 2 -> one physics step per frame (~13.9 ms)
        private const float PhysicsStep = 1f / 72f;

        [SerializeField] private float _snapTurnDegrees = 45f;
        [SerializeField] private int _solverIterations = 12;
        [SerializeField] private GameObject _xrOrigin;

        private void Awake()
        {
            Time.fixedDeltaTime = PhysicsStep;
            Time.maximumDeltaTime = PhysicsStep * 3f;
            Physics.defaultSolverIterations = _solverIterations;

            if (_xrOrigin.TryGetComponent(out SnapTurnProviderBase snap))
            {
                snap.turnAmount = _snapTurnDegrees;
                snap.enabled = true;
            }

            if (_xrOrigin.TryGetComponent(out ContinuousTurnProviderBase smooth))
            {
                // trainees can switch it on in the comfort menu; off out of the box
                smooth.enabled = false;
            }

            // keep heavy cargo from spinning up forever after a collision
            Physics.defaultMaxAngularSpeed = 20f;
            DontDestroyOnLoad(gameObject);
        }
    }
}
