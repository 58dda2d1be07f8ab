import { encode, decode } from "@msgpack/msgpack";
import debounce from "lodash/debounce";
import { create as createPatch, patch as applyPatch } from "jsondiffpatch";
import type { GameState, ServerMsg } from "@hexwright/rules/validate";

const differ = createPatch({ objectHash: (u: { id: string }) => u.id });

export class MatchSocket {
  private ws: WebSocket;
  private state: GameState | null = null;
  private listeners = new Set<(s: GameState) => void>();

  constructor(url: string, private ticket: string) {
    this.ws = new WebSocket(url);
    this.ws.binaryType = "arraybuffer";
    this.ws.onopen = () => this.ws.send(encode({ t: "auth", ticket: this.ticket }));
    this.ws.onmessage = (ev) => this.onFrame(ev.data as ArrayBuffer);
  }

  private onFrame(buf: ArrayBuffer) {
    const msg = decode(new Uint8Array(buf)) as ServerMsg;
    if (msg.t === "snapshot") {
      this.state = msg.state;
      this.emit();
      return;
    }
    if (msg.t === "delta" && this.state) {
      this.state = applyPatch(structuredClone(this.state), msg.delta) as GameState;
      this.emit();
    }
  }

  private emit = debounce(() => {
    if (!this.state) return;
    for (const l of this.listeners) l(this.state);
  }, 16);

  subscribe(fn: (s: GameState) => void) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  sendMove(move: { unit: string; to: [number, number] }) {
    this.ws.send(encode({ t: "move", ...move }));
  }
}
