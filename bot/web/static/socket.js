// The page's connection: the hello that proves who it is, then frames in and presses out.
// Any close but a final one (the server said why, or a 4xxx code) is followed by a reconnect
// with a growing pause; the server then sends the whole current state again.

const FIRST_PAUSE = 300;
const LONGEST_PAUSE = 5000;

export class Connection {
  constructor(hello, handlers) {
    this.hello = hello;
    this.handlers = handlers; // {frame(frame), lost(), final(text)}
    this.pause = FIRST_PAUSE;
    this.final = false;
    this.ws = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(this.hello));
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.t === "closed") {
        this.final = true;
        this.handlers.final(frame.text);
        return;
      }
      if (frame.t === "state") this.pause = FIRST_PAUSE;
      this.handlers.frame(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      if (this.final || (event.code >= 4000 && event.code < 5000) || event.code === 1009) {
        this.final = true;
        this.handlers.final(null);
        return;
      }
      this.handlers.lost();
      setTimeout(() => this.connect(), this.pause);
      this.pause = Math.min(this.pause * 2, LONGEST_PAUSE);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}
