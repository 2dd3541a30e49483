// The game page's layout helpers: on a phone the choices are a sheet fixed at the bottom of the
// screen, which its toggle folds down to its title (the board then gets the room).
const panel = document.getElementById("actions-panel");
const toggle = document.getElementById("sheet-toggle");

function fold(folded) {
  panel.classList.toggle("folded", folded);
  document.body.classList.toggle("sheet-folded", folded);
  toggle.textContent = folded ? "▴" : "▾";
  toggle.setAttribute("aria-expanded", String(!folded));
}

toggle.addEventListener("click", () => fold(!panel.classList.contains("folded")));
