"""What the page kit sends to the browser: its style sheets and scripts, as strings.

The kit (:mod:`smoothviz.ui.kit`) decides when each is sent: the shell once per tab, the page and
presenter sheets on every run, the scroll script when a link names a tab. Here they read as CSS and JS.
"""

__all__ = [
    "A11Y_CSS",
    "EMBED_CSS",
    "PAGE_CSS",
    "PHONE_CSS",
    "PRESENT_CSS",
    "SCROLL_TO_TABS_JS",
    "SHELL_JS",
]

# Layout for a projector and a laptop: less padding above the title, metric labels and values that wrap
# instead of truncating (their long text lives in the help tooltip), a one-line title.
PAGE_CSS = """
<style>
.stMainBlockContainer { padding-top: 2.6rem; padding-bottom: 3rem;
  padding-left: 1.5rem; padding-right: 1.5rem; }
.stMainBlockContainer h1 { font-size: 1.85rem; padding: 0.1rem 0 0.2rem 0; line-height: 1.25; }
[data-testid="stMetricLabel"] p, [data-testid="stMetricLabel"] div,
[data-testid="stMetricValue"] div { white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; }
[data-testid="stMetricValue"] { font-size: 1.7rem; line-height: 1.2; }
[data-testid="stMetric"] { min-width: 0; }
</style>
"""
# Presenter mode: no sidebar or chrome, body type ≥ 22 px; figures enlarge their own type.
PRESENT_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
.stMainBlockContainer { padding-top: 1rem; max-width: 100%; }
.stMainBlockContainer p, .stMainBlockContainer li, .stMainBlockContainer label,
.stMainBlockContainer [data-testid="stWidgetLabel"] p,
[data-testid="stCaptionContainer"] { font-size: 22px !important; }
.stMainBlockContainer h1 { font-size: 2.3rem; }
[data-testid="stMetricValue"] { font-size: 2.2rem; }
.stMainBlockContainer [data-testid="stSliderThumbValue"], .stMainBlockContainer [data-testid="stSliderTickBar"],
.stMainBlockContainer [data-baseweb="select"] div, .stMainBlockContainer input,
.stMainBlockContainer button p, .stMainBlockContainer a[data-testid="stPageLink-NavLink"] p
{ font-size: 22px !important; }
</style>
"""

# Accessibility every page gets (checked by axe-core in tests/test_browser_a11y.py): a visible focus
# ring (the slider's thumb too, whose input is visually hidden) and a control label a scene locked that
# keeps its contrast. Streamlit's own "Skip to main content" is the first Tab stop: Tab, Enter, Tab
# reach the first story control.
A11Y_CSS = """<style>
:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px; }
[data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {
  outline: 3px solid #0072B2; outline-offset: 3px; border-radius: 50%; }
label[data-testid="stWidgetLabel"][disabled], label[data-testid="stWidgetLabel"][disabled] p {
  color: #4d4d4d !important; }
</style>"""
# Installed once per browser tab; a MutationObserver keeps the later parts true as pages redraw.
SHELL_JS = """<script>
(() => {
  if (window.__smoothvizShell) return;
  window.__smoothvizShell = true;
  // One history entry per user action. Streamlit pushes an entry whenever the address changes: a page
  // change pushed one, the new page's first write of its values another (a value the page then caps,
  // a third), so Back had to be pressed twice and could land on an entry holding the previous page's
  // values under the new page's path. A push that changes only the query and follows no click, tap
  // or key press since the last push replaces the current entry instead (a page change always
  // pushes, even when the click came before this script); Back and Forward themselves push nothing.
  // A click on a link to another page leaves the address on the old page until Streamlit moves it,
  // and on a busy server the new page's first write can come first: that write goes under the new
  // page's path (Streamlit's own push then replaces it), never as an extra entry under the old one.
  let acted = false;
  let going = null;  // the page a link just clicked leads to, until the address gets there
  const acting = (link) => {  // a user's action, on ``link`` (or null) when it follows one
    acted = true;
    going = null;
    if (link) {
      const to = new URL(link.href, window.location.href);
      if (to.origin === window.location.origin && to.pathname !== window.location.pathname) {
        going = to.pathname;
      }
    }
  };
  const act = (event) => {
    if (!event.isTrusted) return;
    const link = event.target.closest && event.target.closest("a[href]");
    const plain = event.type === "keydown" ? event.key === "Enter"
      : !(event.button > 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey);
    acting(link && plain ? link : null);
  };
  for (const type of ["pointerdown", "keydown", "touchstart"]) {
    document.addEventListener(type, act, true);
  }
  // A lecture's clicker keys press the scene bar's own button or link for the user (a script's
  // click, which ``act`` does not count): the clicker reports its step here, one entry like a click.
  window.__smoothvizActing = acting;
  window.addEventListener("popstate", () => { acted = false; going = null; }, true);
  const push = window.history.pushState.bind(window.history);
  window.history.pushState = (state, title, url) => {
    const target = new URL(url === undefined || url === null ? window.location.href : url,
                           window.location.href);
    const page = target.pathname;
    if (going && page === window.location.pathname) {
      target.pathname = going;
      acted = false;
      going = null;
      return push(state, title, target.pathname + target.search + target.hash);
    }
    if (page === going) going = null;
    if (!acted && page === window.location.pathname) {
      return window.history.replaceState(state, title, url);
    }
    acted = false;
    return push(state, title, url);
  };
  // Text alternatives and keyboard reach, kept as the page redraws: every chart is a figure named
  // by its caption's first sentence; a block that scrolls sideways (a wide formula) takes focus.
  const label = () => {
    for (const chart of document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]')) {
      const next = chart.closest(".stElementContainer")?.nextElementSibling;
      const caption = next?.querySelector('[data-testid="stCaptionContainer"]')?.innerText?.trim();
      if (!caption) continue;
      const first = (caption.match(/^.*?[.!?](?=\\s|$)/) || [caption])[0];
      if (chart.getAttribute("aria-label") !== first) {
        chart.setAttribute("role", "figure");
        chart.setAttribute("aria-label", first);
      }
    }
    for (const box of document.querySelectorAll('[data-testid="stMain"] .katex-display')) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      if (!scrolls && box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    }
  };
  // on a phone or tablet, legends and chart type smaller, so a legend keeps to two or three rows
  const phone = () => {
    if (window.innerWidth > 820 || !window.Plotly) return;
    for (const gd of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
      const legend = gd.layout && gd.layout.legend;
      if (legend && gd.layout.showlegend !== false && !(legend.font && legend.font.size <= 11)) {
        const left = gd.layout.margin && gd.layout.margin.l;
        const l = Math.min(left || 80, 56);
        const size = gd._fullLayout && gd._fullLayout._size;
        // a column of entries becomes a row above the plot: a column on a phone takes a row each;
        // and one under a titled figure goes above the plot too: plotly gives a legend placed in the
        // container half the width
        const above = {"legend.orientation": "h", "legend.y": 1.02, "legend.yanchor": "bottom",
                       "legend.yref": "paper"};
        const move = legend.orientation !== "h" || legend.yref === "container";
        const flat = move ? above : {};
        const y = move ? 1.02 : legend.y;
        const wide = size && size.w > 0 && (y > 1 || y < 0) && !legend.xref;
        // a legend above or below the plot may then use the figure's whole width, its left margin too
        const x = wide ? -l / (size.w + (size.l || l) - l) : legend.x;
        window.Plotly.relayout(gd, {"legend.font.size": 11, "legend.itemwidth": 30, "font.size": 12,
                                     "margin.l": l, "legend.x": x, "legend.xanchor": "left", ...flat})
          .then(() => {  // still over two rows (a row is ~29 px): one size smaller closes the gap
            const drawn = gd.querySelector(".legend");
            if (drawn && drawn.getBoundingClientRect().height > 62) {
              return window.Plotly.relayout(gd, {"legend.font.size": 10, "legend.tracegroupgap": 0});
            }
          })
          .then(() => {  // a legend moved above a titled plot: the title goes above the legend
            const drawn = gd.querySelector(".legend");
            if (!move || !drawn || !(gd.layout.title && gd.layout.title.text)) return;
            const tall = Math.round(drawn.getBoundingClientRect().height);
            window.Plotly.relayout(gd, {"margin.t": tall + 44, "title.yref": "container",
                                        "title.y": 1, "title.yanchor": "top", "title.pad.t": 6});
          });
      }
    }
  };
  const update = () => { label(); phone(); };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    setTimeout(() => { queued = false; update(); }, 200);
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
  window.addEventListener("resize", update);
  update();
})();
</script>"""
# A phone or a tablet (≤ 820 px wide): the title starts below Streamlit's 64 px header; smaller title
# and "Watch:" type; the story controls two to a row and the scene bar's Back / Next beside its title
# (Streamlit stacks every column below 640 px), so the hero's plotting area starts on the first screen;
# slider thumbs of 24 px for a finger; no chart toolbar over the legend (Streamlit's fullscreen button
# stays). Legends get a smaller font from the browser script (a figure's layout lives there).
PHONE_CSS = """<style>
@media (max-width: 820px) {
  .stMainBlockContainer { padding-top: 4.1rem !important; padding-left: 1rem; padding-right: 1rem; }
  .stMainBlockContainer h1 { font-size: 1.4rem !important; line-height: 1.25; }
  [data-testid="stMain"] h1 + * p, .stMainBlockContainer [data-testid="stMarkdownContainer"] p {
    font-size: 0.95rem; }
  .stMainBlockContainer [data-testid="stHorizontalBlock"]:has([data-testid="stSlider"]),
  .st-key-smoothviz-lecture [data-testid="stHorizontalBlock"] { flex-wrap: wrap !important;
    flex-direction: row !important; gap: 0.2rem 0.8rem !important; }
  .stMainBlockContainer [data-testid="stHorizontalBlock"]:has([data-testid="stSlider"])
    > [data-testid="stColumn"] { min-width: calc(50% - 0.8rem) !important;
    flex: 1 1 calc(50% - 0.8rem) !important; width: auto !important; }
  .st-key-smoothviz-lecture [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
    min-width: 0 !important; flex: 0 1 auto !important; width: auto !important; }
  .st-key-smoothviz-lecture [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]:first-child {
    flex: 1 1 100% !important; }
  [data-testid="stMain"] .modebar-container { display: none !important; }
  [data-testid="stMain"] [role="tablist"] { flex-wrap: wrap; row-gap: 0.2rem; overflow: visible; }
  [data-testid="stMain"] [role="tab"] { min-height: 2.2rem; }
  [data-testid="stSlider"] div:has(> div > input[type="range"]) { width: 24px !important;
    height: 24px !important; }
}
</style>"""
# Embedded (``embed=true`` in the link, e.g. an iframe in a course page): only the page, no navigation.
EMBED_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
.stMainBlockContainer { padding-top: 1rem !important; max-width: 100%; }
</style>"""

# Used when a link names a tab (see :func:`smoothviz.ui.kit.tabs`): scroll the tabs to the top of
# the screen and keep them there while the charts above and in the tab are drawn.
SCROLL_TO_TABS_JS = """<script>
(() => {
  // scroll now, and again while the charts above (and in the tab) are still being drawn; only this
  // document's own scrolling box moves (scrollIntoView would scroll a page that embeds this one too)
  const scroller = (el) => {
    for (let box = el.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (/(auto|scroll)/.test(style.overflowY) && box.scrollHeight > box.clientHeight) return box;
    }
    return document.scrollingElement;
  };
  // until the tabs are at the top with every chart drawn: a tab that computes for seconds leaves
  // the page too short to scroll that far until its chart arrives. A user who scrolls, taps or
  // presses a key meanwhile takes over.
  let tries = 0;
  const mine = ["wheel", "touchmove", "keydown", "pointerdown"];
  const stop = () => {
    clearInterval(timer);
    for (const type of mine) window.removeEventListener(type, stop, true);
  };
  for (const type of mine) window.addEventListener(type, stop, true);
  const timer = setInterval(() => {
    const tabs = document.querySelector('[data-testid="stTabs"]');
    let off = Infinity;
    if (tabs) {
      const box = scroller(tabs);
      const top = box === document.scrollingElement ? 0 : box.getBoundingClientRect().top;
      // below Streamlit's header where it is drawn (a phone's 64 px white bar)
      const header = document.querySelector('[data-testid="stHeader"]');
      const shown = header && getComputedStyle(header).display !== "none";
      const below = shown ? Math.max(0, header.getBoundingClientRect().bottom - top) : 0;
      box.scrollTop += tabs.getBoundingClientRect().top - top - below;
      off = Math.abs(tabs.getBoundingClientRect().top - top - below);
    }
    const plots = [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')];
    const settled = plots.length > 0 && plots.every((p) => p.querySelector('.main-svg'));
    if ((settled && off < 2 && tries > 5) || ++tries > 600) stop();
  }, 100);
})();
</script>"""
