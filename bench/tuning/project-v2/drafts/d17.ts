import { Socket, Channel } from "phoenix"

export const MAX_BODY_BYTES = 2000

export interface ChatMessage {
  id: string
  body: string
  userName: string
  insertedAt: string
}

export class RoomClient {
  private channel: Channel

  constructor(socket: Socket, roomId: string) {
    this.channel = socket.channel(`room:${roomId}`, {})
  }

  onMessage(cb: (m: ChatMessage) => void): void {
    this.channel.on("newMessage", (p: { id: string; body: string; user: { name: string }; inserted_at: string }) =>
      cb({ id: p.id, body: p.body, userName: p.user.name, insertedAt: p.inserted_at }),
    )
  }

  send(body: string) {
    if (new TextEncoder().encode(body).length > MAX_BODY_BYTES) throw new Error("too_long")
    return this.channel.push("new_msg", { body })
  }
}
