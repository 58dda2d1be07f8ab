import { Card, Typography } from "@mui/material";
import { StopMarker } from "@busroute/ui";
import type { PortalStudent } from "../api/types";

export function StudentStopCard({ student }: { student: PortalStudent }) {
  return (
    <Card variant="outlined">
      <Typography variant="h6">{student.firstName}'s stop</Typography>
      <Typography>{student.stop.name} at {student.stop.scheduledTime}</Typography>
      <Typography color="text.secondary">Home: {student.homeAddress}</Typography>
      <StopMarker lat={student.stop.lat} lon={student.stop.lon} />
    </Card>
  );
}
