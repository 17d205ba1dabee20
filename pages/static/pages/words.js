// The page's words in its language, for the site's scripts: portfolio/jinja2.py's script_words
// writes them into an element's data-words, keyed by the English text (none on an English page),
// and each script keeps its English as the fallback. %(name)s in a text takes a value.
// Loaded synchronously in <head>, before the scripts that read it.
var siteWords = {
  of: function (element) {
    try {
      return JSON.parse((element && element.getAttribute("data-words")) || "{}");
    } catch (error) {
      return {};
    }
  },
  tr: function (table, text, values) {
    return (table[text] || text).replace(/%\((\w+)\)s/g, function (whole, name) {
      return values && name in values ? values[name] : whole;
    });
  },
};
