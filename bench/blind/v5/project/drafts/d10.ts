import { jwtVerify, createRemoteJWKSet } from "jose";
import { encode } from "@msgpack/msgpack";
import type { Socket } from "./transport";
import type { ClientMsg, GameState } from "@hexwright/rules/validate";
import { resolve } from "@hexwright/rules/resolve";
import { createRng } from "@hexwright/rules/rng";

const JWKS = createRemoteJWKSet(new URL(process.env.AUTH_JWKS_URL ?? "http://auth:8080/.well-known/jwks.json"));

export class SpectatorRoom {
  private spectators = new Set<Socket>();

  constructor(private matchId: string, private seed: number, private state: GameState) {}

  async join(socket: Socket, ticket: string) {
    const { payload } = await jwtVerify(ticket, JWKS, { issuer: "hexwright-auth" });
    socket.data.playerId = String(payload.sub);
    socket.data.role = "spectator";
    this.spectators.add(socket);
    socket.send(encode({ t: "snapshot", seq: this.state.seq, state: this.state, events: [] }));
  }

  leave(socket: Socket) {
    this.spectators.delete(socket);
  }

  onMessage(socket: Socket, msg: ClientMsg) {
    if (socket.data.role === "spectator") {
      if (msg.t === "chat") this.broadcastChat(socket.data.playerId, msg.text);
      return;
    }
  }

  /** Called by the match room after every resolved action. */
  publish(action: ClientMsg) {
    const rng = createRng(this.seed + this.state.seq);
    const { state, events } = resolve(this.state, action, rng);
    this.state = state;
    const frame = encode({ t: "snapshot", seq: state.seq, state, events });
    for (const s of this.spectators) s.send(frame);
  }

  private broadcastChat(from: string, text: string) {
    const frame = encode({ t: "chat", from, text: text.slice(0, 200) });
    for (const s of this.spectators) s.send(frame);
  }
}
