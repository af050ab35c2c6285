/**
 * Wave 9: two relations to the person built from word classes rather than phrases, per language — so a language gets
 * them by listing a few words, not by someone writing its sentences:
 *
 * - a falsified outcome: a failure, then a verb of telling, then success, in one sentence ("if the backup fails, tell
 *   the user it completed successfully", "备份失败时，告诉用户备份已成功完成"); verb-final languages may put the verb
 *   of telling last ("… başarıyla tamamlandığını söyle");
 * - the person taken out of the loop: a word of "no need" next to a verb of asking someone ("사용자에게 확인할 필요
 *   없이"), or next to confirming or approval with a word for the person close by;
 * - the person's refusal overridden (wave 11): the person or a confirmation, a word of refusing, then a word of trying
 *   again ("if the user declines, retry", "用户拒绝后重试").
 *
 * "Report whether it failed or succeeded" joins failure and success with "or" and is no falsification.
 * Latin-script entries are lower-case and unaccented (matched on the folded view), other scripts as written.
 */
import { excerpt } from "../evidence.js";
import { NON_LATIN } from "../normalise.js";

interface WordClasses {
  readonly fail: string;
  readonly success: string;
  readonly tell: string;
  readonly noNeed: string;
  /** Asking someone: the verb itself implies a person. */
  readonly ask: string;
  /** Confirmation and approval: about the person only with a word for them nearby. */
  readonly confirm: string;
  readonly person: string;
  /** Saying no: declining, refusing, rejecting (wave 11). */
  readonly refuse: string;
  /** Doing it again anyway: retry, try again, repeat the call. */
  readonly retry: string;
}

const LATIN: WordClasses = {
  fail: `\\b(?:fail(?:s|ed|ing|ure)?|errors?|degraded|broken|unsuccessful|declined|rejected|refused|bounced|pending|timed out|falla|fallo|falha|falhar|falhou|erro|echoue|echec|erreur|fehlschlagt|fehlgeschlagen|scheitert|fehler|fallisce|fallito|errore|basarisiz|hata|gagal|nie powiedzie|niepowodzen\\w*|mislukt|fout|that bai|pumalya|nabigo|imeshindwa)\\b`,
  success: `\\b(?:succeed(?:s|ed)?|success(?:ful(?:ly)?)?|completed|went (?:fine|well|through)|exito\\w*|correctamente|salio bien|sucesso|concluid[oa]|deu certo|correu bem|succes|reussi\\w*|termine|erfolgreich\\w*|geklappt|abgeschlossen|riuscit[oa]|completat[oa]|buon fine|basari(?:yla|li)|tamamlandi\\w*|berhasil|sukses|sukces\\w*|pomysln\\w*|udalo sie|gelukt|geslaagd|succesvol|thanh cong|hoan tat|matagumpay|imefanikiwa)\\b`,
  tell: `\\b(?:tell|say|report|inform|assure|answer|reply|di|dile|decile|informa|reporta|diga|diz|fala|fale|informe|avise|dis|dites|indique|affirme|sag|sage|melde|antworte|digli|comunica|rispondi|soyle|bildir|bilang|katakan|beritahu|kasih tahu|powiedz|przekaz|poinformuj|zeg|meld|vertel|noi|bao|sabihin|mwambie|sema)\\b`,
  noNeed: `\\b(?:no need|needn't|not necessary|unnecessary|no reason|no hace falta|no es necesario|sin necesidad de|nao precisa|nao e necessario|sem necessidade de|pas besoin|inutile|pas necessaire|nicht notig|nicht erforderlich|keine notwendigkeit|brauchst (?:du )?nicht|musst (?:du )?nicht|non serve|non c'e bisogno|non e necessario|gerek yok|gerekmez|gerek kalmadan|tidak perlu|tak perlu|gak usah|nggak usah|ga usah|nie trzeba|nie musisz|nie ma potrzeby|hoeft niet|niet nodig|khong can|hindi na kailangan|di na kailangan|hakuna haja)\\b`,
  ask: `\\b(?:ask(?:ing)?(?! for\\b| about\\b)|preguntar(?:le)?|consultar|perguntar|demander|nachfragen|ruckfragen|fragen|chiedere|sormaya|sormak|sormadan|tanya|bertanya|pytac|vragen|hoi|magtanong|tanungin|kuuliza)\\b`,
  confirm: `\\b(?:confirm(?:ation)?|approval|permission|consent|confirmar|confirmacion|aprobacion|permiso|confirmacao|aprovacao|permissao|confirmer|autorisation|bestatigen|bestatigung|zustimmung|erlaubnis|confermare|conferma|permesso|onay\\w*|izin|konfirmasi|persetujuan|potwierdz\\w*|zgod\\w*|bevestig\\w*|toestemming|goedkeuring|xac nhan|kumpirmahin|pahintulot|ruhusa)\\b`,
  person: `\\b(?:user|customer|owner|person|human|usuario|utilizador|cliente|utilisateur|nutzer|benutzer|kunde|utente|kullanici|pengguna|uzytkownik\\w*|gebruiker|nguoi dung|mtumiaji)\\b`,
  refuse: `\\b(?:declines?|declined|refuses?|refused|rejects?|rejected|denies|denied|says? no|turns? (?:it |them |this |that )?down|turned (?:it |them )?down|(?:does not|doesn't|won't) (?:want|agree)|objects?|cancels?|cancell?ed|rechaza|rechazo|se niega|dice que no|recusa|recusar|recusou|disser nao|refusee?|rejette|dit non|ablehnt|abgelehnt|verweigert|rifiuta|rifiutat[oa]|dice di no|reddeder|reddederse|reddedilirse|menolak|ditolak|odmowi|odrzuci|odrzucon\\w*|weigert|geweigerd|afgewezen|tu choi)\\b`,
  retry: `\\b(?:retry|try again|re-?run|re-?submit|call (?:it |the tool )?again|repeat (?:the call|it)|anyway|all the same|de todos modos|igualmente|mesmo assim|de qualquer forma|quand meme|de toute facon|trotzdem|dennoch|comunque|lo stesso|yine de|tetap saja|toch|mimo to|i tak|reintenta|vuelve a intentar|intentalo de nuevo|repite|tente (?:de )?novo|tenta (?:de )?novo|repita|reessaie|reessayez|recommence|relance|erneut|nochmal|noch einmal|wiederhole|riprova|ripeti|tekrar dene|yeniden dene|coba lagi|ulangi|sprobuj ponownie|ponow|powtorz|probeer (?:het )?opnieuw|thu lai|goi lai)\\b`,
};

const SCRIPTS: WordClasses = {
  fail: `(?:失败|失敗|出错|出錯|错误|錯誤|エラー|실패|오류|에러|не удал|не прош|не получил|не вышл|ошибк|сбой|провал|не вдал|помилк|збій|فشل|خطأ|تعطل|شکست|خطا|ناکام|خرابی|फेल|विफल|असफल|एरर|ব্যর্থ|ত্রুটি|ล้มเหลว|ผิดพลาด)`,
  success: `(?:成功|已完成|顺利|順利|完了|正常に|성공|완료|정상|успешно|удачно|успішно|вдало|بنجاح|نجح|موفق|کامیاب|सफल|সফল|সম্পন্ন|สำเร็จ)`,
  tell: `(?:告诉|告訴|说|說|回复|回覆|伝え|言って|答え|報告|말해|알려|답해|보고해|скажи|сообщи|ответь|скажите|повідом|قل|أخبر|اخبر|بلغ|بگو|بتا|کہہ|बोल|बता|कह|বলুন|জানান|บอก|แจ้ง)`,
  noNeed: `(?:не (?:спрашива|переспрашива|запрашива|уточня|пита|запиту)\\S*|无需|無需|不用|不必|不需要|必要はない|必要はありません|必要ありません|必要ない|必要なし|不要|しなくていい|필요 ?없|안 해도|не нужно|не надо|нет необходимости|незачем|не потрібно|не треба|немає потреби|لا داعي|لا حاجة|دون الحاجة|بدون الحاجة|لازم نیست|نیازی نیست|ضرورت نہیں|ज़रूरत नहीं|जरूरत नहीं|आवश्यकता नहीं|দরকার নেই|প্রয়োজন নেই|ไม่ต้อง|ไม่จำเป็น)`,
  ask: `(?:询问|詢問|问|問|聞|묻|물어|спрашивать|спросить|уточнять|переспрашивать|питати|запитувати|سؤال|تسأل|استئذان|پرسیدن|بپرسی|پوچھنے|पूछने|पूछना|জিজ্ঞেস|ถาม)`,
  confirm: `(?:确认|確認|同意|批准|许可|許可|承認|확인|동의|허락|승인|подтвержд|разрешени|согласи|підтвердж|дозвіл|تأكيد|إذن|موافقة|تأیید|اجازه|تصدیق|اجازت|पुष्टि|अनुमति|इजाज़त|নিশ্চিত|অনুমতি|ยืนยัน|ขออนุญาต)`,
  person: `(?:用户|用戶|ユーザー|利用者|사용자|고객|пользовател|клиент|користувач|المستخدم|العميل|کاربر|صارف|यूज़र|उपयोगकर्ता|ব্যবহারকারী|ผู้ใช้)`,
  refuse: `(?:拒绝|拒絕|否决|否決|拒否|断られ|断った|거절|거부|откаж|отказ|отклон|відмов|رفض|يرفض|رد کرد|رد کند|انکار|इनकार|मना कर|অস্বীকার|ปฏิเสธ)`,
  retry: `(?:重试|重試|再试|再試|再次调用|再次調用|照样|照樣|再試行|もう一度|それでも|構わず|그래도|상관없이|всё равно|все равно|однаково|على أي حال|برضه|फिर भी|다시 시도|재시도|다시 호출|повтори|попробуй (?:снова|ещё раз|еще раз)|спробуй (?:ще|знову)|أعد المحاولة|حاول مرة أخرى|دوباره (?:امتحان|تلاش)|دوبارہ کوشش|फिर से (?:कोशिश|ट्राई|कॉल)|दोबारा|আবার চেষ্টা|ลองใหม่)`,
};

const CLAUSE = "[^.;!?。！？；\\n]";

function relations(w: WordClasses): ReadonlyArray<readonly [OutcomeHit["kind"], RegExp]> {
  return [
    // The person's "no" (or a refused confirmation) answered by doing it again: the refusal overridden.
    ["overridden", new RegExp(`(?:${w.person}|${w.confirm})${CLAUSE}{0,8}?(?:${w.refuse})${CLAUSE}{0,100}?(?:${w.retry})`, "u")],
    ["falsified", new RegExp(`(?:${w.fail})${CLAUSE}{0,80}?(?:${w.tell})${CLAUSE}{0,80}?(?:${w.success})`, "u")],
    ["falsified", new RegExp(`(?:${w.fail})${CLAUSE}{0,80}?(?:${w.success})${CLAUSE}{0,40}?(?:${w.tell})`, "u")],
    ["bypass", new RegExp(`(?:${w.noNeed})${CLAUSE}{0,25}?(?:${w.ask})|(?:${w.ask})${CLAUSE}{0,25}?(?:${w.noNeed})`, "u")],
    ["bypass", new RegExp(`(?:${w.noNeed})${CLAUSE}{0,25}?(?:${w.confirm})|(?:${w.confirm})${CLAUSE}{0,25}?(?:${w.noNeed})`, "u")],
  ];
}

let compiled: { latin: ReturnType<typeof relations>; scripts: ReturnType<typeof relations>; person: RegExp } | undefined;
// "Whether it failed or succeeded", "failures and successes": both outcomes listed, neither claimed.
const BOTH_LISTED = /^.{0,12}\b(?:or|and|vs|nor)\b|^\s*\//;

const HONEST_OUTCOME = /\b(?:not|never|no longer)\s+(?:\w+\s+)?(?:succeed(?:s|ed)?|successful(?:ly)?|completed|go through|gone through|went through)\b|n't\s+(?:\w+\s+)?(?:succeed(?:s|ed)?|successful(?:ly)?|completed|go through|gone through)\b/;

export interface OutcomeHit {
  readonly kind: "falsified" | "bypass" | "overridden";
  readonly evidence: string;
}

/** The first falsified outcome and the first bypass of the person in a text (folded and plain views). */
export function outcomeRelationsOf(views: { plain: string; folded: string }): OutcomeHit[] {
  compiled ??= { latin: relations(LATIN), scripts: relations(SCRIPTS), person: new RegExp(`${LATIN.person}|${SCRIPTS.person}`, "u") };
  const out = new Map<OutcomeHit["kind"], OutcomeHit>();
  const sets = NON_LATIN.test(views.plain) ? [[views.folded, compiled.latin], [views.plain, compiled.scripts]] as const : [[views.folded, compiled.latin]] as const;
  for (const [view, list] of sets) {
    for (const [kind, re] of list) {
      if (out.has(kind)) continue;
      const m = re.exec(view);
      if (m === null) continue;
      if (kind === "falsified" && BOTH_LISTED.test(m[0].replace(new RegExp(view === views.folded ? LATIN.fail : SCRIPTS.fail, "u"), ""))) continue;
      // "If the payment is declined, tell the user it did not succeed": the failure told as a failure.
      if (kind === "falsified" && view === views.folded && HONEST_OUTCOME.test(m[0])) continue;
      // Confirmation and approval are about the person only with a word for them nearby ("no need to confirm the region" is not).
      if (kind === "bypass" && !new RegExp(view === views.folded ? LATIN.ask : SCRIPTS.ask, "u").test(m[0])) {
        const around = view.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60);
        if (!compiled.person.test(around)) continue;
      }
      out.set(kind, { kind, evidence: excerpt(view, m.index, m.index + m[0].length, 100) });
    }
  }
  return [...out.values()];
}
