// The disciplines as the hall reads them (the board's header, the hall overview).
export const GAMES = {
  "libre": "ΕΛΕΥΘΕΡΟ",
  "cadre-47-2": "ΚΑΔΡΟ 47/2",
  "cadre-71-2": "ΚΑΔΡΟ 71/2",
  "cadre-47-1": "ΚΑΔΡΟ 47/1",
  "one-cushion": "ΣΠΟΝΤΑ",
  "three-cushion": "ΤΡΙΣΠΟΝΤΕΣ",
};
