// The house-rules panel of the lobby: the place of the house-rules work (issue 27), which
// replaces these two functions. lobby.js calls mountHouseRules once with the panel's
// container (#houserules) and merges houseRules() into the body of POST /api/rooms.

// draw the panel's fields into `container`; until the panel exists it stays empty
export function mountHouseRules(container) {
  container.hidden = true;
}

// the room settings the panel adds to a creation request: none yet
export function houseRules() {
  return {};
}
