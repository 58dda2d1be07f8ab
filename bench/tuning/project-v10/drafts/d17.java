package energy.gustlog.collector;

import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;

public class AlarmReset {
    private final OpcUaClient client;

    public AlarmReset(OpcUaClient client) { this.client = client; }

    public void reset(String turbine) throws Exception {
        NodeId node = NodeId.parse("ns=2;s=" + turbine + ".WTUR.AlmRs");
        client.writeValue(node, new DataValue(new Variant(true))).get();
    }
}
