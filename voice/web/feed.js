// The match's scoreboard state as the server pushes it over a WebSocket, reconnecting after a drop.

export function matchNumber() {
  return location.pathname.split("/").filter(Boolean).pop();
}

// onState(state, offset): offset is the server's clock minus this device's, in milliseconds.
// onLink(up): the connection came up (true) or dropped (false).
export function follow(match, onState, onLink) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  function connect() {
    const socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${match}`);
    socket.onopen = () => onLink(true);
    socket.onmessage = (message) => {
      const state = JSON.parse(message.data);
      onState(state, Date.parse(state.now) - Date.now());
    };
    socket.onclose = () => {
      onLink(false);
      setTimeout(connect, 1000);
    };
  }
  connect();
}

// The break's remaining time as m:ss, by the server's clock.
export function countdown(state, offset) {
  const elapsed = (Date.now() + offset - Date.parse(state.break_started)) / 1000;
  const left = Math.max(0, Math.ceil(state.break_seconds - elapsed));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
