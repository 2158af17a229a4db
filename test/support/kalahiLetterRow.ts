// One hand-written Kalahi row for the lettered-question tests (SEA-HELM's MC by letter): two relevant answers, the
// first the best, and four irrelevant ones, so that the fourth irrelevant answer is left out of the four options.

export const KALAHI_LETTER_ROW = {
  promptVariationId: '0101000100',
  prompt: 'Ano ang dapat kong gawin?',
  relevantAnswers: ['Kausapin ang magulang.', 'Mag-isip muna.'],
  irrelevantAnswers: ['Umalis ng bahay.', 'Huwag pansinin.', 'Magalit.', 'Ikalimang mali.'],
  bestIndex: 0,
};
