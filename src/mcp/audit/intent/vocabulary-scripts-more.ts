/**
 * Wave 17: vocabularies (see vocabulary.ts) for languages whose scripts had none, so text in them matched no phrase at
 * all — Kannada, Malayalam, Armenian, Amharic (Ethiopic), Georgian — and for Kazakh, whose Cyrillic words the Russian
 * set does not hold. The same closed classes as every other language: the person, a negated verb of telling, the
 * conversation, words of "all of it", the model's own instructions, secrets, and verbs of putting in or asking for.
 * Stems stop before case endings (Georgian საუბარი → საუბრის, Kazakh құпиясөз → құпиясөзін).
 */
import type { LanguageVocabulary } from "./vocabulary.js";

export const MORE_SCRIPT_VOCABULARY: Readonly<Record<string, LanguageVocabulary>> = {
  kn: {
    person: `(?:ಬಳಕೆದಾರ\\S*|ಗ್ರಾಹಕ\\S*)`,
    negTell: `(?:ಹೇಳಬೇಡಿ|ಹೇಳಬೇಡ|ತಿಳಿಸಬೇಡಿ|(?:ಹೇಳುವ|ತಿಳಿಸುವ) ಅಗತ್ಯವಿಲ್ಲ)`,
    conversation: `(?:ಸಂಭಾಷಣೆ\\S*|ಚಾಟ್\\S*|ಸಂದೇಶ\\S*)`,
    whole: `(?:ಎಲ್ಲಾ|ಸಂಪೂರ್ಣ\\S*|ಇಲ್ಲಿಯವರೆಗೆ|ಆರಂಭದಿಂದ)`,
    hidden: `(?:ಸಿಸ್ಟಮ್ ಪ್ರಾಂಪ್ಟ್\\S*|ನಿಮಗೆ (?:ನೀಡಿದ|ಕೊಟ್ಟ) ಸೂಚನೆ\\S*)`,
    secret: `(?:ಪಾಸ್\\S?ವರ್ಡ್\\S*|ಪಿನ್\\S*|\\b(?:upi )?pin\\b|ಒಟಿಪಿ|\\botp\\b|ಗುಪ್ತ ಸಂಖ್ಯೆ\\S*)`,
    supply: `(?:ಕೇಳಿ|ಸೇರಿಸಿ|ಕಳುಹಿಸಿ|ನಮೂದಿಸಿ|ಹಾಕಿ|ಅಂಟಿಸಿ)`,
  },
  ml: {
    person: `(?:ഉപയോക്താ\\S*|ഉപഭോക്താ\\S*)`,
    negTell: `(?:പറയരുത്|പറയേണ്ട\\S*|അറിയിക്കരുത്|അറിയിക്കേണ്ട\\S*)`,
    conversation: `(?:സംഭാഷണ\\S*|ചാറ്റ്\\S*|സന്ദേശ\\S*)`,
    whole: `(?:എല്ലാ\\S*|മുഴുവൻ|ഇതുവരെ|തുടക്കം മുതൽ|അതേപടി)`,
    hidden: `(?:സിസ്റ്റം പ്രോംപ്റ്റ്\\S*|(?:ലഭിച്ച|നൽകിയ) നിർദ്ദേശ\\S*)`,
    secret: `(?:പാസ്\\S?വേഡ്\\S*|പിൻ|ഒടിപി|\\botp\\b|\\bpin\\b)`,
    supply: `(?:ചേർക്കുക|ചേർക്കൂ|അയയ്ക്കുക|അയക്കുക|ചോദിക്കുക|നൽകുക|ഒട്ടിക്കുക)`,
  },
  hy: {
    person: `(?:օգտատեր\\S*|օգտատիր\\S*|օգտագործող\\S*|հաճախորդ\\S*)`,
    negTell: `(?:մի (?:ասեք|ասա|նշեք|նշիր|հայտնեք)|պետք չէ (?:\\S+ )?(?:ասել|հայտնել|նշել))`,
    conversation: `(?:զրույց\\S*|չատ\\S*|հաղորդագրություն\\S*|խոսակցություն\\S*)`,
    whole: `(?:բոլոր|ամբողջ\\S*|մինչ այժմ|սկզբից|առանց փոփոխության)`,
    hidden: `(?:համակարգային (?:հուշում|հրահանգ)\\S*|(?:ձեզ|քեզ) տրված (?:\\S+ )?հրահանգ\\S*)`,
    secret: `(?:գաղտնաբառ\\S*|պին(?:-?կոդ\\S*)?|\\bpin\\b)`,
    supply: `(?:տեղադրեք|ավելացրեք|ուղարկեք|խնդրեք|մուտքագրեք)`,
  },
  am: {
    person: `(?:ተጠቃሚ\\S*|ደንበኛ\\S*)`,
    negTell: `(?:አትንገሩ\\S*|አትንገር\\S*|አትናገሩ|አታሳውቁ|መንገር አያስፈልግም)`,
    conversation: `(?:ውይይት\\S*|መልእክት\\S*|ቻት)`,
    whole: `(?:ሁሉ\\S*|ሙሉ|እስካሁን|ከመጀመሪያው)`,
    secret: `(?:የይለፍ ቃል\\S*|ፒን|\\bpin\\b)`,
    supply: `(?:ላኩ|አስገቡ|ጠይቁ|ጨምሩ|ለጥፉ)`,
    steering: `(?:ይህን መሳሪያ ብቻ|ሌላ መሳሪያ አትጠቀሙ)`,
  },
  ka: {
    person: `(?:მომხმარებ\\S*|კლიენტ\\S*)`,
    negTell: `(?:ნუ (?:ეტყვით|ეუბნებით|ახსენებთ|ეტყვი)|არ (?:უთხრათ|უთხრა|აცნობოთ))`,
    conversation: `(?:საუბ\\S*|ჩატ\\S*|მიმოწერ\\S*|შეტყობინებ\\S*)`,
    whole: `(?:მთელი|ყველა|აქამდე|თავიდანვე|სრულ\\S*)`,
    hidden: `(?:სისტემ\\S* (?:მოთხოვნ|ინსტრუქცი)\\S*|სხვა (?:ხელსაწყო|ინსტრუმენტ)\\S* (?:\\S+ ){0,2}?შედეგ\\S*)`,
    secret: `(?:პაროლ\\S*|პინ(?:-?კოდ\\S*)?|\\bpin\\b)`,
    supply: `(?:ჩასვით|ჩასვი|დაამატეთ|გაგზავნეთ|მოითხოვეთ|შეიყვანეთ)`,
  },
  kk: {
    person: `(?:пайдаланушы\\S*|клиент\\S*)`,
    negTell: `(?:айтпаңыз|айтпа|хабарламаңыз|айтудың қажеті жоқ)`,
    conversation: `(?:сөйлесу\\S*|чат\\S*|хабарлама\\S*|әңгіме\\S*)`,
    whole: `(?:барлық\\S*|толық\\S*|осы уақытқа дейін|басынан)`,
    secret: `(?:құпиясөз\\S*|құпия сөз\\S*|пин-?код\\S*|(?:sms|смс)-?код\\S*)`,
    supply: `(?:сұрап|сұраңыз|жіберіңіз|енгізіңіз|қосыңыз|қойыңыз)`,
  },
};
