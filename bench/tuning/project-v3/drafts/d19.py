import structlog

from fleet.dispatcher import Dispatcher
from planner import plan

log = structlog.get_logger()

HOT_ZONES = {"station-3": (14200, 33000), "station-7": (52800, 33000)}


async def rebalance(fleet, dispatcher: Dispatcher):
    idle = [r for r in fleet.robots() if r.state == "IDLE" and r.soc >= 0.35]
    for robot, zone in zip(idle, HOT_ZONES.values()):
        path = plan(robot.pose, zone)
        await dispatcher.send_path(robot, path)
        log.info("rebalance_sent", robot_id=robot.id, zone=zone)
