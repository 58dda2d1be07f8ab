using UnityEngine;
using UnityEngine.XR.Interaction.Toolkit;

namespace Hoist.Locomotion
{
    /// <summary>
    /// Applies the comfort defaults for a fresh profile. Called by the profile
    /// service when a trainee logs in for the first time on a headset.
    /// </summary>
    public class ComfortDefaults : MonoBehaviour
    {
        [SerializeField] private SnapTurnProviderBase _snapTurn;
        [SerializeField] private ContinuousTurnProviderBase _continuousTurn;
        [SerializeField] private TunnelingVignetteController _vignette;
        [SerializeField] private float _vignetteAperture = 0.7f;

        public const string PrefsKey = "comfort.v2";

        public void ApplyFirstRunDefaults()
        {
            // most of the pilot group were experienced gamers; finer snap feels less jumpy
            _snapTurn.turnAmount = 30f;
            _snapTurn.debounceTime = 0.35f;
            _snapTurn.enabled = true;

            // smooth turn on as well so the thumbstick does something while held
            _continuousTurn.turnSpeed = 60f;
            _continuousTurn.enabled = true;

            _vignette.defaultParameters.apertureSize = _vignetteAperture;
            _vignette.enabled = true;

            PlayerPrefs.SetString(PrefsKey, JsonUtility.ToJson(new ComfortPrefs
            {
                SnapTurnDegrees = _snapTurn.turnAmount,
                SmoothTurn = _continuousTurn.enabled,
                VignetteAperture = _vignetteAperture,
            }));
            PlayerPrefs.Save();
        }

        [System.Serializable]
        private struct ComfortPrefs
        {
            public float SnapTurnDegrees;
            public bool SmoothTurn;
            public float VignetteAperture;
        }
    }
}
