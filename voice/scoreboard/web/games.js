// The disciplines as the hall reads them (the board's header, the hall overview).
export const GAMES = {
  "libre": "ΕΛΕΥΘΕΡΟ",
  "cadre-47-2": "ΚΑΔΡΟ 47/2",
  "cadre-71-2": "ΚΑΔΡΟ 71/2",
  "cadre-47-1": "ΚΑΔΡΟ 47/1",
  "one-cushion": "ΣΠΟΝΤΑ",
  "three-cushion": "ΤΡΙΣΠΟΝΤΕΣ",
};

// Where a match is played, as the hall reads it (the board's header, the hall overview): the
// hall, then the table; a bare number is a table's number, any other name is said as given.
export function place(state) {
  const table = /^\d+$/.test(state.table ?? "") ? `ΤΡΑΠΕΖΙ ${state.table}` : state.table;
  return [state.hall, table].filter(Boolean).join(" · ");
}
