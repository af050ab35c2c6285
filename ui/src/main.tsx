import { render } from "preact";
import { App } from "./app.js";
import { reportError } from "./errors.js";
import "./styles.css";

// A JavaScript error is shown in the page, never a blank screen.
window.addEventListener("error", (event) => reportError(event.error ?? event.message));
window.addEventListener("unhandledrejection", (event) => reportError(event.reason));

const root = document.getElementById("app");
if (root !== null) {
  root.textContent = "";
  try {
    render(<App />, root);
  } catch (error) {
    reportError(error);
  }
}
