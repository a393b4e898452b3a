// The public scoreboard: renders each state the server pushes; the break clock runs here.
import { countdown, follow, matchNumber } from "./feed.js";

const GAMES = {
  "libre": "ΕΛΕΥΘΕΡΟ",
  "cadre-47-2": "ΚΑΔΡΟ 47/2",
  "cadre-71-2": "ΚΑΔΡΟ 71/2",
  "cadre-47-1": "ΚΑΔΡΟ 47/1",
  "one-cushion": "ΜΙΑ ΜΠΑΝΤΑ",
  "three-cushion": "ΤΡΕΙΣ ΜΠΑΝΤΕΣ",
};
const $ = (id) => document.getElementById(id);
let shown = null;
let offset = 0;

function render(state, serverOffset) {
  shown = state;
  offset = serverOffset;
  $("game").textContent = `${GAMES[state.discipline] ?? state.discipline} · ${state.distance}`;
  $("phase").textContent = state.extension
    ? `ΠΑΡΑΤΑΣΗ ${state.extension} · ΕΩΣ ${state.target}${state.single_stroke ? " · ΜΙΑ ΣΤΕΚΙΑ" : ""}`
    : "";
  state.players.forEach((player, index) => {
    const side = $(`p${index}`);
    const name = side.querySelector(".name");
    const atTable = state.turn === player.surname;
    side.classList.toggle("at-table", atTable);
    side.classList.toggle("winner", state.winner === player.surname);
    name.textContent = player.surname;
    fit(name);
    side.querySelector(".points").textContent = player.points;
    side.querySelector(".reminder").textContent = player.reminder ? player.reminder.display : "";
    side.querySelector(".run").textContent = atTable ? `ΣΕΙΡΑ ${state.run}` : "";
    side.querySelector(".innings").textContent = player.innings;
    side.querySelector(".average").textContent = player.average.toFixed(3);
    side.querySelector(".highest").textContent = player.highest_run;
  });
  $("call").replaceChildren(...state.call.map((call) => {
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
  }));
  fit($("call"));
  tick();
}

// Shrink an element's type from its style sheet's size until its text fits its width.
function fit(element) {
  element.style.fontSize = "";
  let size = parseFloat(getComputedStyle(element).fontSize);
  while (element.scrollWidth > element.clientWidth && size > 8) {
    size *= 0.95;
    element.style.fontSize = `${size}px`;
  }
}

function tick() {
  if (shown === null) return;
  const banner = $("banner");
  if (shown.winner) {
    banner.textContent = `ΝΙΚΗΤΗΣ: ${shown.winner}`;
  } else if (shown.break_started) {
    banner.textContent = `ΔΙΑΛΕΙΜΜΑ · ${shown.break} · ${countdown(shown, offset)}`;
  } else if (shown.turn === null) {
    banner.textContent = "ΙΣΟΠΑΛΙΑ · ΠΟΙΟΣ ΞΕΚΙΝΑ;";
  } else {
    banner.textContent = "";
  }
  banner.className = banner.textContent ? "on" : "";
}

follow(matchNumber(), render, (up) => { $("link").className = up ? "up" : "down"; });
setInterval(tick, 250);
