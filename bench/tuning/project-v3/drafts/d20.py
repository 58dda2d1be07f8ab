import json
import logging

import aiomqtt

log = logging.getLogger(__name__)


async def send_home(client: aiomqtt.Client, robot, home):
    if robot.soc < 0.25:
        log.info(f"robot {robot.id} low battery, sending to charger")
    path = [robot.pose, home]
    await client.publish(f"fleet/{robot.id}/path", json.dumps({"path": path}), qos=1)
