import { readFileSync } from 'node:fs';
import { create, type Font } from 'fontkit';
import { present } from '../../platform/invariant';

/**
 * Embedded fonts for statements, read and parsed once per process (pdfkit subsets them per document).
 * DejaVu Sans covers Latin (extended), Greek, Cyrillic, Hebrew, Arabic…; Noto Sans SC adds the CJK
 * ideographs DejaVu lacks. No single npm-shipped font covers both ("Łukasz" needs DejaVu, "王" needs Noto),
 * so text is split into runs, each set in the first font that has its glyphs.
 */
export type FontName = 'sans' | 'sans-bold' | 'cjk';

const FILES: Record<FontName, string> = {
  sans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  'sans-bold': 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  // Regular weight only: a bold CJK face would add another 10 MB for the rare bold CJK heading.
  cjk: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
};

let loaded: Record<FontName, Font> | undefined;

export function fonts(): Record<FontName, Font> {
  loaded ??= Object.fromEntries(Object.entries(FILES).map(([name, file]) => [name, create(readFileSync(require.resolve(file))) as Font])) as Record<
    FontName,
    Font
  >;
  return loaded;
}

export interface Run {
  font: FontName;
  text: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Splits text into runs of one font: the primary face where it has the glyph, else the CJK fallback. */
export function runs(text: string, primary: 'sans' | 'sans-bold'): Run[] {
  if (PRINTABLE_ASCII.test(text)) return [{ font: primary, text }]; // the common case, without a lookup per character
  const f = fonts();
  const out: Run[] = [];
  for (const ch of text) {
    const cp = present(ch.codePointAt(0), 'code point');
    const last = out.at(-1);
    // The primary face wherever it has the glyph (a missing glyph in both prints as the primary's box).
    const font: FontName = f[primary].hasGlyphForCodePoint(cp) || !f.cjk.hasGlyphForCodePoint(cp) ? primary : 'cjk';
    if (last?.font === font) last.text += ch;
    else out.push({ font, text: ch });
  }
  return out;
}
