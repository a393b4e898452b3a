// The match's scoreboard state as the server pushes it over a WebSocket, reconnecting after a
// drop with exponential backoff and jitter, so a hall of boards does not return all at once.

const RETRY_FIRST = 500;  // ms: the first retry's ceiling
const RETRY_MOST = 15000;  // ms: the ceiling never grows past this

export function matchNumber() {
  return location.pathname.split("/").filter(Boolean).pop();
}

// The wait before retry number `attempt` (0, 1, …): half its ceiling plus a random half.
export function backoff(attempt) {
  const ceiling = Math.min(RETRY_MOST, RETRY_FIRST * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

// onState(state, offset): offset is the server's clock minus this device's, in milliseconds.
// onLink(up): the connection came up (true) or dropped or could not be made (false).
export function follow(match, onState, onLink) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let attempt = 0;
  function connect() {
    const socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${match}`);
    socket.onopen = () => {
      attempt = 0;
      onLink(true);
    };
    socket.onmessage = (message) => {
      const state = JSON.parse(message.data);
      onState(state, Date.parse(state.now) - Date.now());
    };
    socket.onclose = () => {
      onLink(false);
      setTimeout(connect, backoff(attempt));
      attempt += 1;
    };
  }
  connect();
}

const SILENT_AFTER = 15000;  // ms: an older heartbeat of a loop not stopped says nothing
// The words for each Liveness (voice/match_record/liveness.py); a test keeps the two alike.
const HEARD = {
  listening: "ακούει",
  mic_lost: "χάθηκε το μικρόφωνο",
  pa_lost: "χάθηκαν τα μεγάφωνα",
  headset_lost: "χάθηκαν τα ακουστικά",
  stopped: "σταμάτησε",
};

// The voice loop as its heartbeat in the record shows it, by the server's clock: `kind` (the
// heartbeat's state, or "silent" when there is none or it is over 15 s old) and its words.
export function liveness(state, offset) {
  const beat = state.liveness;
  const age = beat ? Date.now() + offset - Date.parse(beat.at) : Infinity;
  if (!beat || (beat.state !== "stopped" && age > SILENT_AFTER)) {
    return { kind: "silent", text: "καμία ένδειξη" };
  }
  return { kind: beat.state, text: HEARD[beat.state] };
}

// The break's remaining time as m:ss, by the server's clock.
export function countdown(state, offset) {
  const elapsed = (Date.now() + offset - Date.parse(state.break_started)) / 1000;
  const left = Math.max(0, Math.ceil(state.break_seconds - elapsed));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

// A moment (ms since the epoch) as this device's local hh:mm:ss.
export function clock(moment) {
  const time = new Date(moment);
  return [time.getHours(), time.getMinutes(), time.getSeconds()]
    .map((part) => String(part).padStart(2, "0")).join(":");
}
