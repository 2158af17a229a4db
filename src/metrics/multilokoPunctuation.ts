// The 111 code points eval.py's remove_punc deletes: string.punctuation plus its `extra_punct` (docs/metrics.md#normalisation).

/** The deletion set as the body of a character class (all in the BMP). */
export const MULTILOKO_PUNCTUATION_CLASS =
  '\\x21-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7e\\xa1\\xab\\xbb\\xbf\\u2013\\u2014\\u2018\\u2019\\u201b-\\u201f\\u2026\\u2027' +
  '\\u3001-\\u3003\\u300a-\\u3011\\u3014-\\u301f\\u3030\\u303e\\u303f\\ufe4f\\uff01-\\uff0d\\uff0f\\uff1a-\\uff20' +
  '\\uff3b-\\uff40\\uff5b-\\uff64';
