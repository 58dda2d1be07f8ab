using UnityEngine;

namespace Hoist.Crane
{
    /// <summary>
    /// Rope between trolley and hook block. Segments are linked rigidbodies so the
    /// hook reacts to the load the same way the rest of the crane does.
    /// </summary>
    public class RopeLinkChain : MonoBehaviour
    {
        [SerializeField] private Rigidbody _trolleyAnchor;
        [SerializeField] private Rigidbody _hookBlock;
        [SerializeField] private GameObject _linkPrefab;
        [SerializeField] private int _linkCount = 32;
        [SerializeField] private float _winchSpeed = 0.6f;

        private Rigidbody[] _links;

        private void Awake()
        {
            _links = new Rigidbody[_linkCount];
            Rigidbody previous = _trolleyAnchor;
            float spacing = Vector3.Distance(_trolleyAnchor.position, _hookBlock.position) / _linkCount;

            for (int i = 0; i < _linkCount; i++)
            {
                var link = Instantiate(_linkPrefab, _trolleyAnchor.position + Vector3.down * spacing * (i + 1),
                    Quaternion.identity, transform);
                var body = link.GetComponent<Rigidbody>();
                if (body == null) body = link.AddComponent<Rigidbody>();

                var joint = link.AddComponent<ConfigurableJoint>();
                joint.connectedBody = previous;
                joint.xMotion = ConfigurableJointMotion.Locked;
                joint.yMotion = ConfigurableJointMotion.Limited;
                joint.zMotion = ConfigurableJointMotion.Locked;
                joint.linearLimit = new SoftJointLimit { limit = 0.01f };

                _links[i] = body;
                previous = body;
            }

            var hookJoint = _hookBlock.gameObject.AddComponent<ConfigurableJoint>();
            hookJoint.connectedBody = previous;
        }

        private void FixedUpdate()
        {
            // winch lever on the cab panel
            float lever = Input.GetAxis("HoistLever");
            if (Mathf.Abs(lever) < 0.05f) return;

            var top = _links[0].GetComponent<ConfigurableJoint>();
            var anchor = top.connectedAnchor;
            anchor.y += lever * _winchSpeed * Time.fixedDeltaTime;
            top.connectedAnchor = anchor;
        }
    }
}
