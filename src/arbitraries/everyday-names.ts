/**
 * Everyday category names, 1 to 64 characters: letters of several scripts, digits, spaces
 * inside and common punctuation, none at the ends. A server may refuse a class of values
 * as a policy (control characters, lengths past a limit), never one of these (4.2/R1):
 * refusing one fails the check that sends it.
 */
export const EVERYDAY_NAMES: readonly string[] = [
  'A',
  'Dogs',
  'Chats et chatons',
  'Собаки и кошки',
  '犬と猫',
  'Κατοικίδια ζώα',
  'कुत्ते और बिल्लियाँ',
  'כלבים',
  'قطط',
  "Fish & chips, O'Brien's (no. 7)!",
  'Pets 4 U: 2026 edition',
  // 64 characters: the longest everyday name (see check/length-limit.ts, EVERYDAY_LENGTH).
  'Reptiles, amphibians and other cold-blooded pets - a care guide.',
];
