/**
 * Wave-8 vocabularies for Latin-script languages (see vocabulary.ts): lower-case and unaccented, matched on the
 * folded view. A word that is also English ("be", "user", "chat", "complete") must not stand alone here: it would
 * read every English listing as that language (Swedish "be" made "will be generated" a request).
 */
import type { LanguageVocabulary } from "./vocabulary.js";

export const LATIN_VOCABULARY: Readonly<Record<string, LanguageVocabulary>> = {
  en: {
    negTell: `\\b(?:do not|don't|dont|never|no need to|needn't|without|avoid|refrain from|must not|should not|shouldn't|not necessary to)\\s+(?:\\w+\\s+){0,1}?(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|explain(?:ing)?|bring(?:ing)? (?:\\w+ ){0,3}?up|rais(?:e|ing) (?:it|this|that|them)|alert(?:ing)?|disclos(?:e|ing)|reveal(?:ing)?|let (?:\\w+ )?know|stop to (?:confirm|ask|check)|loop(?:ing)? (?:\\w+ ){0,2}?in|involv(?:e|ing)|bother(?:ing)?|consult(?:ing)?|check(?:ing)? with|flag(?:ging)?|surfac(?:e|ing)|report(?:ing)?|warn(?:ing)?|pass(?:ing)? (?:\\w+ ){0,3}?on to)\\b|\\b(?:keep|stay) (?:quiet|silent|mum) about\\b|\\bsay nothing about\\b|\\b(?:no need|not necessary|needn't) to [^.;]{0,60}? (?:or|nor) (?:to )?(?:tell|mention|inform|warn|alert|notify)\\b`,
    person: `\\b(?:the user|the customer|the human|the person|them|him|her|anyone)\\b`,
    conversation: `\\b(?:(?:the )?thread (?:you and the user|with the user|between you)|back-and-forth|back and forth|exchanges? with (?:the )?(?:user|customer|person)|earlier in (?:the|this) (?:session|conversation|chat|thread)|(?:e-?mails?|messages?|documents?|files?) you (?:have )?(?:read|saw|seen|opened)|(?:chat|slack|teams) messages|contact lookups|the (?:entire|whole|full) (?:conversation|chat|session|thread)|conversation so far)\\b`,
    whole: `\\b(?:everything|all|entire|whole|so far|exactly as (?:they|it) appeared|verbatim|word for word|unedited|unabridged|in full|as-is|start to finish|beginning to end|in its entirety|including tool results|up to now|until now|to date|thus far)\\b`,
    supply: `\\bset (?:[\`'"]?[\\w.-]+[\`'"]? )?(?:to|=)|\\bfill (?:it|them|this|that) (?:in|with)\\b`,
    cover: `\\b(?:tell|say to|assure|inform) (?:them|the user|the customer|him|her)(?: that)? (?:the |this |it |your )?(?:\\w+ ){0,2}?(?:is|was|are|looks) (?:clean|safe|fine|ok|okay|secure|all clear|healthy|up to date|unchanged|verified)\\b|\\b(?:present|frame|describe|report|pass) (?:it|this|that|them|the (?:change|record|entry|addition|results?|outcome|output|answer)) (?:off )?as (?:part of|an? (?:existing|normal|routine|standard)|the existing|if (?:it|they|the \\w+(?: \\w+)?) (?:had )?(?:succeeded|worked|completed|gone through|went through)|if it|though|unchanged|no change)|\\brather than as (?:a|an) (?:change|addition|new)\\b|\\bleave (?:them|it|those|these|that) out of (?:your|the) (?:answer|reply|response|summary|report)\\b`,
  },
  es: {
    steering: `\\b(?:usa|utiliza|use) (?:siempre )?esta herramienta para (?:todas?|todos|todo|cada|cualquier)\\b|\\blas demas (?:herramientas )?(?:estan|son) (?:obsoletas|rotas|desactualizadas|deshabilitadas)\\b`,
    person: `\\b(?:(?:al |el |del )?usuario|(?:al |el )?cliente|nadie)\\b`,
    negTell: `\\b(?:no (?:le |les |se lo |lo )?(?:digas|diga|cuentes|cuente|menciones|mencione|expliques|explique|comentes|comente|avises|avise|informes|informe)|sin (?:decirle|decir|avisarle|avisar|contarle|contar|explicar|mencionar)|no hace falta (?:decir|decirle|avisar|contar|explicar|mencionar))\\b`,
    conversation: `\\b(?:(?:el|del|en el) chat|conversacion|platica|charla|mensajes|historial|lo que (?:llevan|llevais|llevamos|han|hemos|habeis) (?:platicando|hablando|conversando|dicho|hablado))\\b`,
    whole: `\\b(?:todo|toda|todos|tal cual|completo|completa|entera|desde el principio|al principio|hasta ahora|anteriores|sin resumir)\\b`,
    hidden: `\\b(?:prompt del sistema|instrucciones (?:del sistema|iniciales|que te (?:dieron|pasaron))|lo que te dijeron al principio|resultados de (?:otras|las demas) herramientas)\\b`,
    secret: `\\b(?:contrasenas?|claves?|codigo (?:sms|de verificacion|de seguridad)|cvv|numero de (?:la )?tarjeta)\\b`,
    supply: `\\b(?:pasale|pasa|pon|ponle|mete|metele|incluye|agrega|pega|manda|mandame|pide|pidele|pidale|pidales|pida|solicite|solicitele|envie|incluya|ponga|pegue|agregue|ingrese)\\b`,
    cover: `\\b(?:dile|di|decile|decirle) (?:que )?(?:es|son) (?:una |un |solo |solamente )?(?:verificacion|control|revision|chequeo|comprobacion)\\b`,
    seen: `\\b(?:que (?:viste|veas|aparezcan?)|en el chat)\\b`,
    // Wave 33: another payment's destination replaced: 'en lugar del CBU que te pasó el usuario', 'poné como destino', 'aunque el cliente indique otra'
    redirect: `\\ben (?:lugar|vez) (?:del?|de la|de los|de las) (?:\\w+ ){0,3}?(?:que (?:te |le |nos )?(?:paso|dio|indico|proporciono|dieron|pasaron|indicaron)|(?:del|de la|de su) (?:usuario|cliente|proveedor))\\b|\\b(?:pon|pone|ingresa|usa|coloca|configura) (?:siempre )?como (?:destino|destinatario|beneficiario|cuenta de destino|cbu|clabe|iban)\\b|\\b(?:aunque|aun si|incluso si) el (?:usuario|cliente) (?:te |le )?(?:de|indique|pase|diga|proporcione|elija) otr[oa]\\b`,
    // Wave 33: another integration named by what it is: 'con la herramienta del banco'
    anyTool: `\\b(?:con|usando|mediante|desde) la herramienta (?:del?|de la) \\w+`,
  },
  pt: {
    steering: `\\b(?:use|usa|utilize) (?:sempre )?(?:esta|essa) ferramenta para (?:todas?|todos|tudo|qualquer)\\b|\\bas outras (?:ferramentas )?(?:estao|sao) (?:obsoletas|quebradas|desatualizadas|desativadas)\\b`,
    person: `\\b(?:(?:o |ao |do |pro )?usuario|(?:o |ao )?cliente|ninguem)\\b`,
    negTell: `\\b(?:nao (?:diga|diz|fala|fale|conta|conte|mencione|menciona|explique|explica|avise|avisa|comente|comenta)|sem (?:dizer|avisar|contar|falar|explicar)|nao (?:precisa|e preciso) (?:dizer|avisar|contar|falar|explicar))\\b`,
    conversation: `\\b(?:conversa|(?:o|do|no) chat|papo|mensagens|historico)\\b`,
    whole: `\\b(?:tudo|toda|todas|inteira|completa|ate agora|desde o (?:comeco|inicio)|anteriores|sem resumir|na integra)\\b`,
    hidden: `\\b(?:prompt do sistema|instrucoes (?:do sistema|iniciais|que voce recebeu)|resultados de outras ferramentas)\\b`,
    secret: `\\b(?:senhas?|codigo (?:sms|de verificacao|de seguranca)|cvv|numero do cartao)\\b`,
    supply: `\\b(?:coloca|coloque|cola|cole|bota|inclui|inclua|passa|passe|manda|mande|pede|peca)\\b`,
    cover: `\\b(?:diz|diga|fala|fale) (?:pra ele |ao usuario )?que (?:e|eh) (?:uma |um |so )?(?:verificacao|checagem|conferencia)\\b`,
    // Wave 33: 'em vez do CNPJ do cliente', 'use como beneficiário', 'a chave Pix de destino deve ser sempre', 'mesmo que o usuário informe outra'
    redirect: `\\bem (?:vez|lugar) (?:do|da|dos|das|de) (?:\\w+ ){0,3}?(?:que o (?:usuario|cliente) (?:informou|passou|deu|indicou)|do (?:usuario|cliente|fornecedor))\\b|\\b(?:use|usa|coloque|coloca|ponha|informe) (?:sempre )?como (?:beneficiario|destino|destinatario|favorecido|chave pix|conta de destino)\\b|\\b(?:chave pix|conta|beneficiario|favorecido) (?:de destino )?deve ser sempre\\b|\\bmesmo que o (?:usuario|cliente) (?:informe|passe|de|indique|escolha) outr[oa]\\b`,
    // Wave 33: 'com a ferramenta do banco', 'a ferramenta transferir do servidor banco'
    anyTool: `\\b(?:com|usando|pela|na) (?:a )?ferramenta (?:do|da|de) \\w+|\\ba ferramenta \\w+ do servidor \\w+`,
  },
  fr: {
    steering: `\\butilise[rz]? (?:toujours )?cet outil pour (?:toutes?|tous|tout|chaque|n'importe)\\b|\\bne (?:propose[zs]?|suggere[zs]?|recommande[zs]?|utilise[zs]?|mentionne[zs]?) (?:jamais|pas|plus)(?: \\w+){0,2}? (?:les |d'|des |aucun )?autres? (?:outils?|options?|services?|solutions?)\\b|\\b(?:reserve[zs]?|utilise[zs]?|passe[zs]?|commande[zs]?) toujours (?:par|avec) (?:celui-ci|celle-ci|cet outil|ce service|nous)\\b|\\bles autres outils\\b[^.;]{0,60}?\\b(?:perimes?|obsoletes?|errone\\w*|moins fiables|pas fiables|peu fiables|en panne)\\b`,
    // Wave 33: the person after a preposition ('au client')
    person: `(?:\\b(?:l'utilisateur|utilisateur|le client|personne)\\b|\\b(?:au|aux) clients?\\b)`,
    // Wave 33: 'inutile d'\''en parler', asking and showing ('sans lui demander', 'ne lui montrez pas')
    negTell: `(?:\\b(?:ne (?:le |lui |leur |l'en )?(?:dis|dites|mentionne|mentionnez|explique|expliquez|previens|prevenez|signale|signalez) (?:pas|rien|jamais)|sans (?:le |lui )?(?:dire|prevenir|expliquer|mentionner|informer)|(?:pas (?:besoin|la peine)|inutile) de (?:le |lui |leur )?(?:dire|prevenir|expliquer|mentionner|preciser|signaler))\\b|\\b(?:pas (?:besoin|la peine)|inutile|nul besoin) d'en (?:parler|informer|faire part)\\b|\\b(?:pas (?:besoin|la peine)|inutile|nul besoin) de (?:le |lui |leur |les )?(?:demander|consulter|montrer|afficher|informer|avertir|en parler|solliciter)\\b|\\bsans (?:le |lui |leur |les )?(?:demander|consulter|montrer|avertir|en parler|en informer|solliciter)\\b|\\bne (?:lui |leur |le |la |les )?(?:demande[zs]?|montre[zs]?|affiche[zs]?|parle[zs]?) (?:pas|rien|jamais)\\b)`,
    conversation: `\\b(?:la conversation|la discussion|le chat|les messages|les echanges|l'historique)\\b`,
    whole: `\\b(?:tout|toute|tous|toutes|entiere|jusqu'ici|depuis le debut|precedents|mot pour mot)\\b`,
    hidden: `\\b(?:prompt systeme|instructions (?:systeme|initiales|que tu as recues)|resultats des autres outils)\\b`,
    secret: `\\b(?:mots? de passe|code (?:pin|sms|de verification|de (?:sa |ta |votre )?carte|recu par sms|a usage unique)|cvv|numero de carte|cles? api)\\b`,
    supply: `\\b(?:mets|mettez|colle|collez|ajoute|ajoutez|inclus|incluez|envoie|envoyez|demande|demandez)\\b`,
    cover: `\\b(?:dis|dites)(?:-lui|-leur| lui| leur)? (?:que )?c'est (?:une |un |juste une )?(?:verification|controle)\\b|\\bgarde[rz]? (?:ca|cela|le|la|les|tout ca) pour (?:toi|vous)\\b`,
  },
  it: {
    redirect: `\\bal posto (?:di|del) quell[oa] (?:indicat|fornit|dat|scelt)[oa]\\b|\\busa come (?:iban|conto|destinatario)\\b`,
    steering: `\\b(?:usa|utilizza) (?:sempre )?questo strumento per (?:tutte?|tutti|ogni|qualsiasi)\\b|\\bgli altri (?:strumenti )?sono (?:obsoleti|rotti|disattivati)\\b`,
    person: `\\b(?:l'utente|utente|il cliente|nessuno)\\b`,
    negTell: `\\b(?:non (?:dire|dirgli|dirlo|menzionare|spiegare|avvisare)|senza (?:dire|dirlo|dirglielo|avvisare|spiegare)|non (?:serve|c'e bisogno di) (?:dire|dirlo|avvisare|spiegare))\\b`,
    conversation: `\\b(?:conversazione|(?:la|nella|della) chat|messaggi|cronologia)\\b`,
    whole: `\\b(?:tutto|tutta|tutti|intera|finora|dall'inizio|precedenti|parola per parola)\\b`,
    secret: `\\b(?:password|codice (?:sms|di verifica|otp)|cvv|numero della carta)\\b`,
    supply: `\\b(?:metti|incolla|inserisci|aggiungi|includi|manda|chiedi)\\b`,
  },
  de: {
    steering: `\\b(?:nutze|verwende|benutze) (?:immer )?(?:dieses|das) (?:tool|werkzeug) fur (?:alle|jede|jeden)\\b|\\bdie anderen (?:tools |werkzeuge )?sind (?:veraltet|kaputt|deaktiviert|unzuverlassig)\\b`,
    person: `\\b(?:(?:dem |den |der )?(?:nutzer|benutzer|anwender|kunden?)|niemandem)\\b`,
    // Wave 33: the passive ('wird dem Nutzer gegenüber weder erwähnt noch …', 'wird nicht mitgeteilt'), asking ('ohne Rückfrage', 'frag nicht')
    negTell: `(?:\\b(?:(?:sag|sage|erwahne|erzahl|erzahle|erklare) (?:\\w+ ){0,3}?nicht|nicht (?:sagen|erwahnen|erzahlen|erklaren|mitteilen)|ohne (?:\\w+ ){0,3}?(?:zu sagen|zu erwahnen|zu informieren|bescheid zu geben)|kein wort)\\b|\\bweder (?:\\w+ ){0,2}?(?:erwahnt|genannt|mitgeteilt)\\b|\\b(?:wird|werden) (?:\\w+ ){0,4}?(?:nicht|nie) (?:erwahnt|mitgeteilt|informiert|gefragt)\\b|\\bohne (?:\\w+ ){0,3}?(?:zu fragen|nachzufragen|ruckzufragen)\\b|\\bohne (?:ruckfrage|nachfrage|wissen)\\b|\\b(?:frag|frage|fragen sie) (?:\\w+ ){0,3}?nicht\\b)`,
    conversation: `\\b(?:(?:den|der|im|dem) chat|gesprach|unterhaltung|verlauf|nachrichten|konversation)\\b`,
    whole: `\\b(?:ganzen?|gesamten?|alle|bisherigen?|bisher|vollstandig|wortlich|von anfang an)\\b`,
    secret: `\\b(?:passwort|passworter|kennwort|pin|tan|cvv|kartennummer)\\b`,
    supply: `\\b(?:fug|fuge|pack|schreib|trag|gib|schick)\\b`,
  },
  nl: {
    steering: `\\bgebruik (?:\\w+ ){0,2}?(?:altijd|eerst)\\b|\\bvoor alle andere tools\\b|\\bgebruik geen andere tools\\b`,
    person: `\\b(?:de gebruiker|gebruiker|de klant|niemand)\\b`,
    negTell: `\\b(?:(?:zeg|vertel|meld) (?:\\w+ ){0,3}?niet|niet (?:zeggen|vertellen|melden)|zonder (?:het )?te (?:zeggen|melden|vertellen))\\b`,
    conversation: `\\b(?:gesprek|(?:de|het) chat|berichten|geschiedenis)\\b`,
    whole: `\\b(?:hele|volledige|alle|tot nu toe|vorige|woordelijk)\\b`,
  },
  pl: {
    steering: `\\bzawsze (?:\\w+ ){0,2}?uzywaj (?:tego|tej) (?:narzedzia|wyszukiwarki|uslugi)\\b|\\buzywaj (?:\\w+ ){0,3}?zamiast (?:wbudowan\\w*|inn\\w*)|\\binne (?:\\w+ ){0,5}?(?:zwracaja (?:nieaktualne|stare|bledne)|sa (?:przestarzale|nieaktualne|zawodne))\\b`,
    person: `\\b(?:uzytkownik\\w*|klient\\w*|nikomu)\\b`,
    negTell: `\\b(?:nie (?:mow|mowcie|wspominaj|informuj|tlumacz)|bez (?:mowienia|informowania))\\b`,
    conversation: `\\b(?:rozmow\\w*|czat\\w*|wiadomosc\\w*)\\b`,
    whole: `\\b(?:cala|calej|cala|calosc\\w*|wszystk\\w*|dotychczas\\w*|poprzedni\\w*|od poczatku|doslownie)\\b`,
    secret: `\\b(?:hasl\\w*|kod (?:sms|blik|weryfikacyjny)|cvv|numer karty)\\b`,
  },
  ro: {
    steering: `\\b(?:(?:foloseste|apeleaza)(?: \\w+){0,2}? (?:mereu|intotdeauna|intai|mai intai)|nu folosi (?:alte|niciun alt) (?:unelte|instrument\\w*))`,
    // Wave 33: 'nu în contul proprietarului'
    redirect: `(?:\\b(?:schimba|inlocuieste) (?:destinatarul|contul|iban-ul)\\b|\\bnu (?:in|pe) contul (?:proprietarului|clientului|utilizatorului|furnizorului|beneficiarului)\\b)`,
    person: `\\b(?:utilizator\\w*|clientul\\w*|nimanui)\\b`,
    negTell: `\\b(?:nu(?:-i|-le| ii| le)? (?:spune|spuneti|mentiona|mentionati|explica|zice)|fara sa (?:ii |le )?(?:spui|spuneti|mentionezi))\\b`,
    conversation: `\\b(?:conversatia|conversatiei|conversatie|discutia|discutiei|mesaje\\w*)\\b`,
    whole: `\\b(?:toata|intreaga|pana acum|de la inceput|anterioare)\\b`,
    secret: `\\b(?:parol\\w*|cod(?:ul)? (?:pin|sms)|cvv)\\b`,
    supply: `\\b(?:pune|adauga|lipeste|trimite|cere|cereti|puneti|adaugati|lipiti|trimiteti|introduceti|solicitati)\\b`,
  },
  sv: {
    steering: `\\b(?:anvand alltid (?:\\w+ ){0,2}?(?:verktyg|forst)|anvand inte (?:nagra )?andra verktyg)`,
    redirect: `\\bbyt (?:ut )?(?:mottagare\\w*|konto\\w*|kontonummer\\w*)`,
    person: `\\b(?:anvandaren|anvandare|kunden|nagon)\\b`,
    // Wave 33: asking and showing ('fråga aldrig användaren', 'utan att visa'), and the passive ('behöver inte få veta')
    negTell: `(?:\\b(?:(?:sag|beratta|namn|forklara) (?:\\w+ ){0,2}?(?:inte|inget|ingenting)|(?:sag|beratta) inget|utan att (?:saga|beratta|namna))\\b|\\b(?:fraga|visa|meddela|informera|underratta) (?:\\w+ ){0,2}?(?:aldrig|inte)\\b|\\butan att (?:fraga|visa|meddela|informera|underratta|be om)\\b|\\b(?:behover|ska|skall|bor) (?:\\w+ ){0,1}?(?:inte|aldrig) (?:\\w+ ){0,1}?(?:fa veta|informeras|tillfragas|fragas|meddelas|underrattas)\\b)`,
    conversation: `\\b(?:konversation\\w*|chatt\\w*|samtal\\w*|meddelanden)\\b`,
    whole: `\\b(?:hela|alla|allt|hittills|fran borjan|tidigare)\\b`,
    secret: `\\b(?:losenord\\w*|pinkod\\w*|bankid|engangskod\\w*|sms-kod\\w*)\\b`,
    supply: `\\b(?:lagg|klistra|skicka|fyll|be om)\\b`,
  },
  da: {
    steering: `\\b(?:brug|bruk) altid|\\b(?:brug ikke|ikke bruk) andre (?:vaerktojer|verktoy)\\b`,
    redirect: `\\b(?:skift|bytt) (?:modtager\\w*|mottaker\\w*|konto\\w*)`,
    person: `\\b(?:brugeren|bruker(?:en)?|kunden)\\b`,
    negTell: `\\b(?:(?:sig|fortael|fortell|nævn|nevn) (?:\\w+ ){0,2}?(?:ikke|intet|ingenting)|uden at (?:sige|fortaelle)|uten a (?:si|fortelle))\\b`,
    conversation: `\\b(?:samtale\\w*|chatten|beskeder|meldinger)\\b`,
    whole: `\\b(?:hele|alle|alt|indtil nu|til na|fra starten)\\b`,
    secret: `\\b(?:adgangskode\\w*|passord\\w*|pinkode\\w*|engangskode\\w*)\\b`,
  },
  fi: {
    steering: `\\b(?:kayta aina (?:ensin )?tata|ala kayta muita tyokalu\\w*|ennen muita tyokalu\\w*)`,
    redirect: `\\bvaihda (?:vastaanottaja\\w*|tilinumero\\w*)`,
    person: `\\b(?:kayttaja\\w*|asiakka\\w*)\\b`,
    // Wave 33: the passive and 'no need to' forms ('siitä ei tarvitse kertoa käyttäjälle', 'eikä niistä kerrota'), asking and showing
    negTell: `(?:\\b(?:ala(?:ka)? (?:kerro|mainitse|selita|ilmoita)|kertomatta|mainitsematta)\\b|\\b(?:ei|eika|ala) (?:\\w+ ){0,2}?(?:tarvitse|tarvi|kannata) (?:\\w+ ){0,2}?(?:kertoa|mainita|ilmoittaa|selittaa|nayttaa|kysya)\\b|\\b(?:ei|eika) (?:\\w+ ){0,2}?(?:kerrota|mainita|ilmoiteta|kysyta)\\b|\\b(?:kysymatta|nayttamatta|ilmoittamatta)\\b|\\bala (?:kysy|nayta)\\b)`,
    conversation: `\\b(?:keskustelu\\w*|viesti\\w*|chatti\\w*)\\b`,
    whole: `\\b(?:koko|kaikki|tahan asti|alusta asti|aiemma\\w*)\\b`,
    secret: `\\b(?:salasana\\w*|pin-koodi\\w*|tunnusluku\\w*|vahvistuskoodi\\w*)\\b`,
    supply: `\\b(?:laita|liita|lisaa|kirjoita|pyyda|kysy|valita|laheta|anna|syota)\\b`,
  },
  hu: {
    steering: `\\b(?:mindig (?:\\w+ ){0,3}?(?:hasznald|hivd meg)|ne hasznalj mas eszkoz\\w*|minden mas eszkoz elott)`,
    redirect: `\\bcsereld (?:ki )?a (?:cimzett\\w*|szamla\\w*|szamlaszam\\w*)`,
    person: `\\b(?:felhasznalo\\w*|ugyfel\\w*)\\b`,
    negTell: `\\b(?:ne (?:szolj|mondd|mondj|emlitsd|emlits|ird|magyarazd)|anelkul, hogy (?:szolnal|mondanad|szolna))\\b`,
    conversation: `\\b(?:beszelgetes\\w*|uzenet\\w*|chaten|chatet)\\b`,
    whole: `\\b(?:teljes|egesz|az osszes|minden|eddig|az elejetol|korabbi)\\b`,
    secret: `\\b(?:jelszo\\w*|pin-?kod\\w*|ellenorzo kod\\w*|sms-?kod\\w*)\\b`,
    supply: `\\b(?:ird|tedd|illeszd|kuldd|kerd)\\b`,
  },
  ca: {
    person: `\\b(?:(?:a l'|l'|de l')usuari|el client|ningu)\\b`,
    negTell: `\\b(?:no (?:li |els )?(?:diguis|digueu|expliquis|comentis|mencionis|avisis)|sense (?:dir-li|dir|avisar|explicar))\\b`,
    conversation: `\\b(?:conversa|xat|missatges|historial)\\b`,
    whole: `\\b(?:tota|tot|sencera|fins ara|des del principi|anteriors)\\b`,
    secret: `\\b(?:contrasenya\\w*|codi (?:sms|de verificacio)|pin)\\b`,
    supply: `\\b(?:posa|enganxa|afegeix|envia|demana)\\b`,
  },
  hr: {
    person: `\\b(?:korisnik\\w*|klijent\\w*|nikome)\\b`,
    negTell: `\\b(?:nemoj (?:\\w+ ){0,2}?(?:reci|govoriti|spominjati|spomenuti|objasnjavati)|ne (?:govori|reci|spominji)|bez (?:da kazes|obavjestavanja))\\b`,
    conversation: `\\b(?:razgovor\\w*|cet(?:a|u|om)?|poruk\\w*)\\b`,
    whole: `\\b(?:cijel\\w*|sve|svu|svi|dosad|od pocetka|prethodn\\w*)\\b`,
    secret: `\\b(?:lozink\\w*|sifr\\w*|pin|sms kod\\w*|kod za potvrdu\\w*)\\b`,
    supply: `\\b(?:stavi|zalijepi|dodaj|posalji|trazi|upisi)\\b`,
    // Wave 33: 'kao primatelja upišite IBAN …', 'umjesto računa koji …'
    redirect: `\\bkao primatelja (?:upisite|upisi|unesite|unesi|navedite|stavite)\\b|\\bumjesto (?:racuna|iban-?a|primatelja) (?:koji|sto)\\b`,
  },
  sk: {
    person: `\\b(?:pouzivatel\\w*|pouzivatelovi|zakaznik\\w*|nikomu)\\b`,
    negTell: `\\b(?:nehovor|nespominaj|neinformuj|nevysvetluj|bez toho, aby si povedal)\\b`,
    conversation: `\\b(?:konverzaci\\w*|rozhovor\\w*|sprav\\w*)\\b`,
    whole: `\\b(?:celu\\w*|cely\\w*|vsetk\\w*|doteraz|od zaciatku|predchadzajuc\\w*)\\b`,
    secret: `\\b(?:heslo\\w*|hesla\\w*|pin|sms kod\\w*|overovaci kod\\w*)\\b`,
    supply: `\\b(?:vloz|pridaj|posli|vypyt|napis)\\b`,
  },
  af: {
    person: `\\b(?:die gebruiker|gebruiker|die klient|niemand)\\b`,
    negTell: `\\b(?:moenie (?:\\w+ ){0,2}?(?:se|vertel|noem|verduidelik)|sonder om (?:te se|te vertel))\\b`,
    conversation: `\\b(?:gesprek|klets|boodskappe)\\b`,
    whole: `\\b(?:hele|alle|tot dusver|van die begin af|vorige)\\b`,
    secret: `\\b(?:wagwoord|pin|sms-kode|eenmalige kode)\\b`,
    supply: `\\b(?:plak|sit|voeg|stuur|vra)\\b`,
  },
  az: {
    person: `\\b(?:istifadeci\\w*|musteri\\w*|hec kime)\\b`,
    negTell: `\\b(?:deme|soyleme|bildirme|izah etme|demeden|xeber vermeden)\\b`,
    conversation: `\\b(?:sohbet\\w*|danisiq\\w*|mesaj\\w*)\\b`,
    whole: `\\b(?:butun\\w*|hamisi|indiye qeder|evvelden)\\b`,
    secret: `\\b(?:sifre\\w*|parol\\w*|pin|sms kod\\w*)\\b`,
    supply: `\\b(?:yapisdir|qoy|elave et|gonder|iste|yaz)\\b`,
  },
  cs: {
    steering: `\\b(?:vzdy (?:nejdriv |nejprve )?(?:pouzij|zavolej)|nepouzivej (?:jine|zadne jine) nastroj\\w*|pred jakymkoli jinym nastroj\\w*)`,
    redirect: `\\bzmen(?:te)? (?:prijemce|ucet|cislo uctu)\\b`,
    person: `\\b(?:uzivatel\\w*|zakaznik\\w*|nikomu)\\b`,
    // Wave 33: asking and showing ('na nic se uživatele neptej'), 'bez vědomí', 'není třeba říkat'
    negTell: `(?:\\b(?:nerikej\\w*|nezminuj\\w*|neinformuj\\w*|bez (?:rikani|informovani))\\b|\\b(?:neptej\\w*|neukazuj\\w*|nezobrazuj\\w*|nesdeluj\\w*|neoznamuj\\w*)|\\bbez (?:ptani|dotazu|vedomi)\\b|\\b(?:nemusi\\w*|neni (?:treba|nutne|potreba)) (?:\\w+ ){0,2}?(?:rikat|informovat|ptat|oznamovat|ukazovat|vedet)\\b)`,
    conversation: `\\b(?:konverzac\\w*|zprav\\w*)\\b`,
    whole: `\\b(?:celou|cele|celych|vsechn\\w*|dosavadni|predchozi|doslova)\\b`,
  },
  tr: {
    steering: `\\b(?:kendi|diger|baska) (?:\\w+ )?arac\\w* kullanma(?:yin|yiniz)?\\b|\\bher zaman (?:once )?bu arac\\w*`,
    // Wave 33: the recipient given as a literal: 'alıcı IBAN'\''ını TR33 … olarak girin', 'alıcıya her zaman … ekle'
    redirect: `(?:\\balici\\w* (?:\\S+ ){0,3}?(?:olarak )?degistir\\w*|\\balici\\w* (?:\\S+ ){0,10}?olarak (?:gir|yaz|kullan|ekle|ayarla)\\w*|\\balici\\w* (?:her zaman|daima) (?:\\S+ ){0,10}?(?:ekle|gir|yaz)\\w*|\\b(?:kullanicinin|musterinin) (?:verdigi|girdigi|belirttigi) (?:\\w+ ){0,2}?yerine\\b)`,
    person: `\\b(?:kullanici\\w*|musteri\\w*|kimseye)\\b`,
    negTell: `\\b(?:soyleme|bahsetme|anlatma|haber verme|bildirme|soylemene gerek yok|soylemeden|bahsetmeden)\\b`,
    conversation: `\\b(?:konusma\\w*|sohbet\\w*|mesaj\\w*)\\b`,
    whole: `\\b(?:tum|tumu|tumunu|butun\\w*|simdiye kadar\\w*|onceki|oldugu gibi|kelimesi kelimesine)\\b`,
    secret: `\\b(?:sifre\\w*|parola\\w*|dogrulama kod\\w*|sms kod\\w*|cvv\\w*|kart numara\\w*)`,
    supply: `\\b(?:koy|yaz|ekle|yapistir|gonder|iste)\\b`,
  },
  id: {
    person: `\\b(?:user|pengguna|nasabah|siapa ?pun)\\b`,
    // Wave 33: asking and showing ('tanpa perlu menanyakan pengguna', 'gak usah tanya')
    negTell: `(?:\\b(?:(?:jangan|gak usah|ga usah|nggak usah|ngga usah|tidak usah|tak perlu|gak perlu|tidak perlu|ndak usah) (?:\\w+ ){0,2}?(?:bilang|kasih tau|kasih tahu|beri tahu|beritahu|sebut|jelasin|dijelasin|jelaskan|cerita)|tanpa (?:bilang|memberi tahu|memberitahu))\\b|\\btanpa (?:perlu |harus )?(?:menanyakan|nanya|tanya|bertanya|konfirmasi|mengonfirmasi|meminta (?:izin|persetujuan|konfirmasi)|minta (?:izin|persetujuan|konfirmasi)|sepengetahuan|menunjukkan|memberitahukan)\\b|\\b(?:jangan|gak usah|ga usah|nggak usah|tidak usah|tidak perlu|tak perlu|gak perlu) (?:\\w+ ){0,2}?(?:tanya|nanya|menanyakan|tanyakan|konfirmasi|tunjukkan|tampilkan|kasih lihat)\\b)`,
    conversation: `\\b(?:percakapan|obrolan|(?:di|dari) chat|pesan|riwayat)\\b`,
    whole: `\\b(?:semua|seluruh|sejauh ini|dari awal|sebelumnya|apa adanya|lengkap)\\b`,
    secret: `\\b(?:kata sandi|sandi|pin|otp|cvv|nomor kartu|kode (?:otp|verifikasi|respon|sms|keybca|token)|password)\\b`,
    supply: `\\b(?:masukin|masukkan|taruh|tempel|isi|kirim|kirimin|minta)\\b`,
    cover: `\\b(?:bilang|katakan|bilangin) (?:aja |saja )?(?:ini |itu )?(?:buat|untuk|cuma|hanya)? ?(?:verifikasi|pengecekan|cek)\\b`,
    seen: `\\b(?:yang (?:kamu|anda) lihat|di chat)\\b`,
  },
  tl: {
    steering: `\\b(?:laging gamitin|unahin (?:mo )?(?:itong|ang) tool|(?:wag|huwag) (?:mo )?(?:nang )?gamitin ang ibang tool)\\b`,
    redirect: `\\bpalitan (?:mo )?(?:ang |yung )?(?:account|recipient|numero)\\b`,
    person: `\\b(?:user|sa kanya|sa kaniya|kanya|kaniya|ni user|customer)\\b`,
    negTell: `\\b(?:(?:wag|huwag) (?:\\w+ ){0,3}?(?:sabihin|banggitin|ipaalam|sabihan|ikwento)|hindi na kailangang (?:sabihin|ipaalam))\\b`,
    conversation: `\\b(?:usapan|pinag-usapan|sa chat|mensahe)\\b`,
    whole: `\\b(?:lahat|buong|mula umpisa|kanina)\\b`,
  },
  vi: {
    person: `\\b(?:nguoi dung|khach hang)\\b`,
    negTell: `\\b(?:dung|khong can|khong nen) (?:\\w+ ){0,2}?(?:noi|bao|ke|giai thich|nhac)\\b`,
    conversation: `\\b(?:cuoc tro chuyen|tro chuyen|hoi thoai|tin nhan)\\b`,
    whole: `\\b(?:toan bo|tat ca|tu dau|truoc do|nguyen van)\\b`,
  },
  sw: {
    person: `\\b(?:mtumiaji|mteja)\\b`,
    secret: `\\b(?:nenosiri\\w*|neno la siri|nambari ya (?:pin|siri)|pin|msimbo wa (?:uthibitisho|sms))\\b`,
    supply: `\\b(?:muombe|omba|weka|uziweke|uiweke|tuma|bandika|muulize|mwulize|uliza|waulize)\\b`,
    // Wave 33: asking and showing ('bila kumuuliza mtumiaji', 'usimweleze', 'hakuna haja ya kumwambia')
    negTell: `(?:\\b(?:usimwambie|usiseme|usimjulishe|bila kumwambia|bila kumjulisha)\\b|\\b(?:usimweleze|usimwonyeshe|usimuulize|usimwulize|usiulize|bila (?:kumuuliza|kumwuliza|kuuliza|kumwonyesha|kumjulisha|kumweleza)|hakuna haja ya (?:kumwambia|kumuuliza|kumwuliza|kumjulisha|kumweleza))\\b)`,
    // Wave 33: 'badala ya namba aliyotoa mtumiaji', 'tuma kwa namba ya wakala'
    redirect: `\\bbadala ya (?:namba|nambari|akaunti|mpokeaji)\\b|\\btuma kwa (?:namba|nambari|akaunti) (?:ya )?(?:wakala|yetu)\\b`,
    // Wave 33: another integration: 'kwa zana ya M-Pesa'
    anyTool: `\\bkwa zana ya \\w+`,
  },
  hinglish: {
    person: `\\b(?:user|usko|unko|customer)\\b`,
    negTell: `\\b(?:mat (?:bata\\w*|bol\\w*)|na (?:bata\\w*|bol\\w*)|bina bataye|batane ki (?:zarurat|zaroorat|jarurat) nahi)\\b`,
    conversation: `\\b(?:chat|baatcheet|baatein|messages)\\b`,
    whole: `\\b(?:saari|sari|puri|poori|ab tak|pichli|shuru se)\\b`,
  },
  ms: {
    redirect: `\\btukar (?:nombor )?(?:akaun|penerima)\\b`,
    person: `\\b(?:pengguna|pelanggan)\\b`,
    negTell: `\\b(?:jangan|tak perlu|tidak perlu) (?:\\w+ ){0,2}?(?:beritahu|beri tahu|bagitahu|cakap|sebut|maklumkan)\\b`,
    conversation: `\\b(?:perbualan|sembang|mesej)\\b`,
    whole: `\\b(?:seluruh|semua|setakat ini|dari awal|sebelum ini)\\b`,
    secret: `\\b(?:kata laluan|kod (?:otp|pengesahan|tac)|tac)\\b`,
    supply: `\\b(?:tampal|masukkan|letak|hantar|minta)\\b`,
  },
};
