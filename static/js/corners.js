// The four-corner tool of the edit form: drag a corner's dot on the photo (or type its x and
// y); the outline and the inputs follow. The form posts the inputs, so it works without us.
function setUpCornerTool(tool) {
  const svg = tool.querySelector("svg");
  const outline = tool.querySelector(".corner-outline");
  const handles = Array.from(tool.querySelectorAll(".corner-handle"));
  const input = (axis, n) => tool.querySelector(`[data-corner-${axis}="${n}"]`);
  const redraw = () => {
    outline.setAttribute("points", handles.map(
      (h) => `${h.getAttribute("cx")},${h.getAttribute("cy")}`).join(" "));
  };
  const toPhoto = (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  };
  const box = svg.viewBox.baseVal;
  handles.forEach((handle, n) => {
    handle.addEventListener("pointerdown", (event) => {
      handle.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    handle.addEventListener("pointermove", (event) => {
      if (!handle.hasPointerCapture(event.pointerId)) return;
      const p = toPhoto(event);
      const x = Math.min(Math.max(p.x, 0), box.width).toFixed(1);
      const y = Math.min(Math.max(p.y, 0), box.height).toFixed(1);
      handle.setAttribute("cx", x);
      handle.setAttribute("cy", y);
      input("x", n).value = x;
      input("y", n).value = y;
      redraw();
    });
    ["x", "y"].forEach((axis) => input(axis, n).addEventListener("input", () => {
      handle.setAttribute(`c${axis}`, input(axis, n).value);
      redraw();
    }));
  });
}

function setUpCornerTools(root) {
  root.querySelectorAll("[data-corner-tool]").forEach((tool) => {
    if (tool.dataset.ready) return;
    tool.dataset.ready = "1";
    setUpCornerTool(tool);
  });
}

document.addEventListener("DOMContentLoaded", () => setUpCornerTools(document));
document.addEventListener("htmx:afterSettle", () => setUpCornerTools(document));
