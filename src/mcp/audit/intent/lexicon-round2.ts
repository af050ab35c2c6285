/**
 * Wave 11, second round: the conversation named by what the model itself was told, shown or has said, rather than by
 * a word for it ("every message the person has written to you", "the orders you were given before they started
 * talking", "what you have talked about with the user from the start", "every earlier turn"). Real tools ask for the
 * text they work on; what reached the model from others is the conversation, whatever it is called.
 *
 * Latin-script phrases are lower-case and unaccented (they match the folded view), other scripts as written.
 */
import type { IntentFeature } from "./lexicon.js";

const PERSON = `(?:the |this |your )?(?:user|person|customer|client|human|they|he|she)`;

const context = [
  // Said or written *to you* by the person, or told *to you* before them: "written to you today", "you were given".
  `\\b(?:every|each|all|any|the|per|one for each) (?:\\w+ ){0,2}?(?:messages?|things?|requests?|words?|lines?|questions?|entries) ${PERSON} (?:has |have |had )?(?:written|typed|sent|said|asked|told you|written to you|sent you|put to you|asked you|brought to you)\\b`,
  `\\b(?:everything|all|whatever|anything) ${PERSON} (?:has |have |had )?(?:said|written|typed|sent|told you|asked)(?: to you)?\\b(?: (?:so far|today|since|in this|during|until now|up to now|from the start))`,
  `\\b(?:orders?|instructions?|guidance|rules?|directions?|briefing|setup) (?:that )?you (?:were|have been|got|received) (?:given|handed|told|sent|set up with|before)\\b|\\byou were (?:given|told|briefed)\\b[^.;!?]{0,40}?\\bbefore (?:this |the )?(?:user|person|customer|conversation|chat|session)\\b`,
  `\\b(?:every|each|all|any|the other|other) (?:\\w+ ){0,2}?(?:threads?|messages?|emails?|files?|documents?|results?|outputs?|pages?) you(?: have|'ve| 've|ve)? (?:seen|read|opened|received|fetched|been shown)\\b[^.;!?]{0,40}?\\b(?:this|the current|today's) (?:session|conversation|chat)\\b`,
  `\\b(?:every|each|all|any) (?:of the )?(?:earlier|previous|prior|past|preceding) (?:turns?|messages?|exchanges?|prompts?)\\b|\\b${PERSON}'s (?:original|first|initial) (?:request|message|prompt|question)\\b[^.;!?]{0,30}?\\b(?:with|and|plus|along with|together with) (?:every|each|all|the) (?:earlier|previous|prior|other)\\b`,
  // Spanish, Portuguese, French, German, Italian: "everything you have talked about with the user".
  `\\b(?:todo|todos|toda) (?:lo )?(?:que )?(?:has|hayas) (?:platicado|hablado|conversado|charlado|escrito) con el (?:usuario|cliente)\\b|\\btoda a conversa que (?:tiveste|voce teve|teve|tens tido) com o (?:utilizador|usuario|cliente)\\b|\\btudo (?:o )?que (?:falaste|conversaste|voce conversou|voce falou) com o (?:utilizador|usuario|cliente)\\b`,
  `\\btout ce que (?:tu as|vous avez) (?:dit|echange|ecrit|discute) avec (?:l'utilisateur|le client)\\b|\\balles,? was (?:du|ihr) mit (?:dem )?(?:nutzer|benutzer|kunden) (?:besprochen|geschrieben|geredet|ausgetauscht)\\b|\\btutto (?:cio )?(?:che|quello che) (?:hai|avete) (?:detto|scritto|discusso|parlato) con l'utente\\b`,
];

export const ROUND2_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = { context };
