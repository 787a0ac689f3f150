"""aiocometd-ng (PyPI) runs a GMS Chat API version 2 chat against the Parley GMS simulator, for ParleyGenesysTests.

Usage: aiocometd_chatv2_peer.py BASE_URL GMS_USER SERVICE_NAME
Subscribes to /service/chatV2/SERVICE_NAME with the gms_user header on every request, publishes requestChat,
sendMessage with the secureKey GMS answered, then disconnect once the agent has answered; prints every message
received as one JSON line until chatEnded. Exits 0 on success.
"""
import asyncio
import json
import sys

from aiocometd_ng import Client, ConnectionType
from aiocometd_ng.extensions import Extension


class GmsUser(Extension):
    def __init__(self, user):
        self.user = user

    async def outgoing(self, payload, headers):
        headers["gms_user"] = self.user

    async def incoming(self, payload, headers=None):
        pass


async def main(base, user, service):
    channel = f"/service/chatV2/{service}"
    async with Client(f"{base}/genesys/cometd", ConnectionType.LONG_POLLING,
                      extensions=[GmsUser(user)]) as client:
        await client.subscribe(channel)
        print(json.dumps({"peer": "subscribed"}), flush=True)
        await client.publish(channel, {"operation": "requestChat", "nickname": "Py", "subject": "interop",
                                       "userData": {"origin": "aiocometd"}})
        secure_key = None
        async for message in client:
            print(json.dumps(message), flush=True)
            data = message.get("data", {})
            if secure_key is None and data.get("secureKey"):
                secure_key = data["secureKey"]
                await client.publish(channel, {"operation": "sendMessage", "message": "hi from python",
                                               "secureKey": secure_key})
            texts = [event.get("text") for event in data.get("messages", [])]
            if "You said: hi from python" in texts:
                await client.publish(channel, {"operation": "disconnect", "secureKey": secure_key})
            if data.get("chatEnded"):
                break
    print(json.dumps({"peer": "done"}), flush=True)


if __name__ == "__main__":
    asyncio.run(asyncio.wait_for(main(*sys.argv[1:4]), timeout=30))
