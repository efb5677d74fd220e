// ESLint over the browser code (static/js) and the JavaScript unit tests (tests/web/js).
// The recommended rules catch mistakes (unused variables, unreachable code, undefined names);
// layout is left to the authors, as it is for Python (docs/style.md).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/web/js/**/*.js", "tests/web/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
