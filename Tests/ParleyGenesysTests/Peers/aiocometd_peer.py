"""aiocometd-ng (PyPI) against the Parley GMS simulator's Bayeux endpoint, for ParleyGenesysTests.

Usage: aiocometd_peer.py BASE_URL GMS_USER SERVICE_ID
Subscribes to /_genesys and /echo with the gms_user header on every request, publishes to /echo,
creates a chat through the simulator's Chat API, and prints each message received as one JSON line
until the agent has joined. Exits 0 on success.
"""
import asyncio
import json
import sys
import urllib.request

from aiocometd_ng import Client, ConnectionType
from aiocometd_ng.extensions import Extension


class GmsUser(Extension):
    def __init__(self, user):
        self.user = user

    async def outgoing(self, payload, headers):
        headers["gms_user"] = self.user

    async def incoming(self, payload, headers=None):
        pass


def create_chat(base, user, service):
    request = urllib.request.Request(
        f"{base}/genesys/1/service/{service}/ixn/chat",
        data=b"firstName=Py&notify_by=comet&_verbose=true",
        headers={"gms_user": user, "Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def main(base, user, service):
    async with Client(f"{base}/genesys/cometd", ConnectionType.LONG_POLLING,
                      extensions=[GmsUser(user)]) as client:
        await client.subscribe("/_genesys")
        await client.subscribe("/echo")
        print(json.dumps({"peer": "subscribed"}), flush=True)
        await client.publish("/echo", {"hello": "from aiocometd"})
        created = await asyncio.get_running_loop().run_in_executor(None, create_chat, base, user, service)
        print(json.dumps({"peer": "created", "state": created.get("chatIxnState")}), flush=True)
        seen_echo = seen_join = False
        async for message in client:
            print(json.dumps(message), flush=True)
            if message.get("channel") == "/echo":
                seen_echo = True
            entries = message.get("data", {}).get("message", {}).get("transcriptToShow", [])
            if any(entry[0] == "Notice.Joined" and entry[4] == "AGENT" for entry in entries):
                seen_join = True
            if seen_echo and seen_join:
                break
    print(json.dumps({"peer": "done"}), flush=True)


if __name__ == "__main__":
    asyncio.run(asyncio.wait_for(main(*sys.argv[1:4]), timeout=30))
