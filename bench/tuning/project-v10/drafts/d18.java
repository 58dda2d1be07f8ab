package energy.gustlog.api;

import java.time.Instant;
import lombok.Value;

@Value
public class CurtailmentHours {
    String turbine;
    Instant monthStart;
    double hours;
}
