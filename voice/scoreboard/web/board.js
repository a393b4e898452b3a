// The public scoreboard: renders each state the server pushes; the break clock runs here.
// `?overlay=1` turns the page into a stream's lower third (board.css: body.overlay).
import { clock, countdown, follow, liveness, matchNumber } from "./feed.js";
import { GAMES, place } from "./games.js";

const OFF = "ball_off_table";  // the PA's call for balls off the table, drawn on its own
const $ = (id) => document.getElementById(id);
let shown = null;
let offset = 0;
let live = false;
let lastLive = null;  // the server's time when the board was last known to be current

function render(state, serverOffset) {
  shown = state;
  offset = serverOffset;
  lastLive = Date.now() + offset;
  const sets = state.sets !== null;
  $("game").textContent = [GAMES[state.discipline] ?? state.discipline, state.distance,
    ...(sets ? [`${state.sets} ΣΕΤ`] : [])].join(" · ");
  $("where").textContent = [place(state), state.referee && `ΔΙΑΙΤΗΤΗΣ ${state.referee}`]
    .filter(Boolean).join(" · ");
  // In sets the score is the set's: each one's points, and his total to play to, in the set.
  const scores = state.players.map((p) => (sets ? p.set_points : p.points));
  const goals = state.players.map((p, index) => p.target - p.points + scores[index]);
  $("phase").textContent = phase(state, goals);
  const digits = Math.max(2, ...scores.map((points) => String(points).length));
  state.players.forEach((player, index) => {
    const side = $(`p${index}`);
    const atTable = state.turn === player.surname;
    side.classList.toggle("at-table", atTable);
    side.classList.toggle("winner", state.winner === player.surname);
    side.style.setProperty("--digits", digits);
    side.querySelector(".name").textContent = player.surname;
    side.querySelector(".points").textContent = scores[index];
    side.querySelector(".sets").textContent = sets ? `ΣΕΤ ${state.sets_won[index]}` : "";
    const left = Math.max(0, player.target - player.points);
    side.querySelector(".goal").textContent = `ΕΩΣ ${goals[index]} · ΜΕΝΟΥΝ ${left}`;
    side.querySelector(".reminder").textContent = player.reminder ? player.reminder.display : "";
    side.querySelector(".run").textContent = atTable ? `ΣΕΡΙ ${state.run}` : "";
    side.querySelector(".innings").textContent = player.innings_left === null
      ? player.innings
      : `${player.innings} · ΑΠΟΜΕΝΟΥΝ ${player.innings_left}`;  // the innings limit
    // Truncated by the server (rules/statistics.py); the Greek decimal comma here.
    side.querySelector(".average").textContent = player.average.toFixed(3).replace(".", ",");
    side.querySelector(".highest").textContent = player.highest_run;
    // His last finished innings, the latest last: the one being played is his run (ΣΕΡΙ).
    side.querySelector(".last-innings .figures").textContent = player.last_innings.join(" · ");
  });
  $("call").replaceChildren(...state.call.filter((call) => call.code !== OFF).map(term));
  ballsOff(state);
  tick();
  refit();
}

// The set being played, and an extension or a play-off with what both play to when it is one.
function phase(state, goals) {
  const parts = [];
  if (state.sets !== null) {
    const played = state.sets_won[0] + state.sets_won[1];
    parts.push(`ΣΕΤ ${state.winner ? played : played + 1}`);
  }
  if (state.extension) {
    parts.push(state.playoff ? "ΜΠΑΡΑΖ" : `ΠΑΡΑΤΑΣΗ ${state.extension}`);
    if (goals[0] === goals[1]) parts.push(`ΕΩΣ ${goals[0]}`);
    if (state.single_stroke) parts.push("ΜΙΑ ΣΤΕΚΙΑ");
  }
  return parts.join(" · ");
}

function term(call) {
  const line = document.createElement("div");
  line.className = "term";
  const written = document.createElement("span");
  written.className = "written";
  written.lang = "fr";
  written.textContent = call.display;
  const spoken = document.createElement("span");
  spoken.className = "spoken";
  spoken.textContent = call.text;
  line.append(written, spoken);
  return line;
}

// Balls off the table: `balls_off` ({display, text, spots: [{ball, spot}]}) draws each ball on
// its spot; a bare `ball_off_table` call in `call` shows the words alone.
function ballsOff(state) {
  const off = state.balls_off ?? state.call.find((call) => call.code === OFF) ?? null;
  const box = $("off");
  box.hidden = off === null;
  const table = box.querySelector(".table");
  table.querySelectorAll(".ball").forEach((ball) => ball.remove());
  if (off === null) return;
  const spots = off.spots ?? [];
  table.hidden = spots.length === 0;
  for (const { ball, spot } of spots) {
    const drawn = document.createElement("span");
    drawn.className = `ball ${ball} ${spot}`;
    table.append(drawn);
  }
  // The display reads «TITLE: ball spot, ball spot …», one placement per ball, in order.
  const [title, ...rest] = off.display.split(": ");
  const placed = rest.length ? rest.join(": ").split(", ") : [];
  const line = (className, text) => {
    const element = document.createElement("div");
    element.className = `${className} fit`;
    element.textContent = text;
    return element;
  };
  box.querySelector(".off-text").replaceChildren(
    line("off-title", title),
    ...placed.map((text, index) => {
      const element = line("off-line", text);
      if (placed.length === spots.length) element.dataset.ball = spots[index].ball;
      return element;
    }),
  );
}

// Shrink an element's type from its style sheet's size until its text fits its box.
export function fit(element) {
  element.style.fontSize = "";
  const fits = () => element.scrollWidth <= element.clientWidth
    && element.scrollHeight <= element.clientHeight;
  if (fits()) return;
  let high = parseFloat(getComputedStyle(element).fontSize);
  let low = Math.min(6, high);
  for (let step = 0; step < 8 && high - low > 0.5; step++) {
    const size = (low + high) / 2;
    element.style.fontSize = `${size}px`;
    if (fits()) low = size; else high = size;
  }
  element.style.fontSize = `${low}px`;
}

// Fit every text that has a box to fit; both scores, and both lines of last innings, take
// the smaller of their two sizes.
function refit() {
  document.querySelectorAll(".fit").forEach(fit);
  for (const selector of [".points", ".last-innings"]) {
    const pair = [...document.querySelectorAll(selector)];
    const size = Math.min(...pair.map((e) => parseFloat(getComputedStyle(e).fontSize)));
    pair.forEach((e) => { e.style.fontSize = `${size}px`; });
  }
}

function tick() {
  if (shown === null) return;
  const voice = liveness(shown, offset);
  $("heard").className = voice.kind;
  $("heard").title = `φωνή: ${voice.text}`;
  const banner = $("banner");
  let text = "";
  if (shown.winner) {
    text = `ΝΙΚΗΤΗΣ: ${shown.winner}`;
  } else if (shown.drawn) {
    text = "ΙΣΟΠΑΛΙΑ";
  } else if (shown.break_started) {
    text = `ΔΙΑΛΕΙΜΜΑ · ${shown.break} · ${countdown(shown, offset)}`;
  } else if (shown.warm_up_started) {
    const timer = { break_started: shown.warm_up_started, break_seconds: shown.warm_up_seconds };
    text = `ΠΡΟΘΕΡΜΑΝΣΗ · ${shown.warm_up} · ${countdown(timer, offset)}`;
  } else if (shown.turn === null) {
    text = "ΙΣΟΠΑΛΙΑ · ΠΟΙΟΣ ΞΕΚΙΝΑ;";
  }
  if (banner.textContent !== text) {
    banner.textContent = text;
    banner.className = text ? "fit on" : "fit";
    fit(banner);
  }
  shotClock(shown.shot_clock);
}

// The shot clock, large while it runs: the seconds left by the server's clock, in the
// warning's colour from its warning on.
function shotClock(timed) {
  const box = $("shot");
  const hidden = timed === null;
  let text = "";
  if (!hidden) {
    const elapsed = (Date.now() + offset - Date.parse(timed.started)) / 1000;
    const left = Math.max(0, Math.ceil(timed.seconds - elapsed));
    text = String(left);
    box.classList.toggle("warning", left <= timed.warning_seconds);
  }
  if (box.hidden !== hidden || box.textContent !== text) {
    const resized = box.hidden !== hidden;
    box.hidden = hidden;
    box.textContent = text;
    if (resized) refit(); else fit(box);
  }
}

// Live, or offline since the last moment the board was known to show the record.
function link(up) {
  if (!up && live) lastLive = Date.now() + offset;
  live = up;
  $("link").className = up ? "up" : "down";
  document.body.classList.toggle("offline", !up);
  $("last").textContent = lastLive === null ? "—" : clock(lastLive);
  const changed = $("offline").hidden !== up;
  $("offline").hidden = up;
  if (changed) refit();
}

if (new URLSearchParams(location.search).get("overlay") === "1") {
  document.body.classList.add("overlay");
}
let pending = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(refit);
});
document.fonts.ready.then(refit);
follow(matchNumber(), render, link);
setInterval(tick, 250);
