// The offer of this page in the reader's language (templates/includes/language_offer.html): shown
// when the first of the browser's languages that the page is written in is not the page's own.
// Once the reader dismisses it, or picks a language in the header's switcher, it is never shown
// again: their choice stands.
(function () {
  "use strict";
  const KEY = "portfolio-language-chosen";
  const box = document.querySelector("[data-language-offer]");

  function choose() {
    try {
      localStorage.setItem(KEY, "1");
    } catch (error) {
      // Storage refused (a private window's policy): the offer may come again, nothing else.
    }
  }

  function chosen() {
    try {
      return localStorage.getItem(KEY) !== null;
    } catch (error) {
      return true; // nowhere to remember a dismissal: never offer
    }
  }

  // The site's code a reader's language asks for: itself, a region's form of it (fr-CA for fr),
  // or its general form (zh for zh-hans); Chinese by script, as browsers name it by region.
  const SCRIPTS = { "zh-cn": "zh-hans", "zh-sg": "zh-hans", "zh-tw": "zh-hant", "zh-hk": "zh-hant", "zh-mo": "zh-hant" };
  function matching(wanted, codes) {
    wanted = SCRIPTS[wanted] || wanted;
    return (
      codes.find((code) => code === wanted) ||
      codes.find((code) => wanted.startsWith(code + "-")) ||
      codes.find((code) => code.startsWith(wanted + "-"))
    );
  }

  for (const link of document.querySelectorAll(".language-switcher a")) {
    link.addEventListener("click", choose);
  }
  if (!box || chosen()) return;
  const page = document.documentElement.lang.toLowerCase();
  const offers = new Map([...box.querySelectorAll("[data-offer]")].map((offer) => [offer.dataset.offer, offer]));
  const codes = [page, ...offers.keys()];
  for (const wanted of navigator.languages || [navigator.language]) {
    const code = matching(String(wanted).toLowerCase(), codes);
    if (code === page) return; // the reader reads this page's language before any other it has
    if (code) {
      const offer = offers.get(code);
      offer.hidden = box.hidden = false;
      offer.querySelector("[data-dismiss]").addEventListener("click", () => {
        box.hidden = true;
        choose();
      });
      return;
    }
  }
})();
