// What sits beside an article inside its main box and is not the article: the readers' comment
// thread, rails of other stories ("Related stories", "More from …", "Read next"), and newsletter
// sign-ups and paywall teasers. The one thing to know: every box is found by what it says it
// is (class/id words, schema.org microdata, ARIA, or a short title that opens it), never by
// site, and goes only while the article itself stays: the page's <h1> is never inside a box, and
// enough prose must be left outside all of them.
import { isElement, isText, walk, type AnyNode, type Element, type ParentNode } from './dom.ts';
import { textLength } from './boilerplate.ts';
import { findTitles, isAncestor, isCommentSection, plainText, titledBoxes, walkNumbered, type Stats } from './main-content.ts';

/** Microdata of one comment (schema.org Comment, the older UserComments) or a comment slot. */
const COMMENT_ITEMTYPE = /schema\.org\/(?:Comment|UserComments)\s*$/i;

/**
 * Titles that open a comment thread: "Comments", "12 Comments", "Comments (4)", "3 thoughts on
 * “…”", "2 Responses to …", "Leave a reply", "Join the discussion", "Discussion about this
 * post", and the same in German, French and Spanish.
 */
const COMMENT_TITLE = new RegExp(
  '^(?:(?:\\d+\\s+)?(?:comments|reader comments|trackbacks|pingbacks|kommentare|commentaires|comentarios)|\\d+\\s+(?:comment|responses?|replies|kommentar|commentaire|comentario))(?:\\s*\\(\\d+\\)|\\s+\\d+)?\\s*:?$|' +
    '^(?:\\d+|one|two|three)\\s+(?:thoughts?|responses?|replies|comments?)\\s+(?:on|to)\\b|' +
    '^(?:leave|post|add|write|submit)\\s+(?:a|your)\\s+(?:comment|reply|response)\\b|^join the (?:discussion|conversation)\\b|' +
    '^discussion about this (?:post|article|story)$|^(?:schreibe?n? (?:sie )?einen kommentar|laisser un commentaire|deja un comentario)\\b',
  'i',
);

/**
 * Titles of rails of other stories beside an article: "Related", "Related articles", "More from
 * The Times", "More stories", "Read next", "You may also like", "Most popular", "Trending",
 * "Recommended for you", "Latest news", "Also in the news", "Don't miss", "Editor's picks", and the same in German,
 * French and Spanish ("Mehr zum Thema", "À lire aussi", "Te puede interesar").
 */
const STORY_RAIL_TITLE = new RegExp(
  '^(?:related(?:\\s+(?:stories|articles|posts|content|news|reading|coverage|links|topics|guides))?|' +
    'more (?:from|on|in|stories|news|articles|posts|to read|to explore|like this|reading)\\b.*|' +
    '(?:read|what to read) next\\b.*|read also|also read|up next|you (?:may|might|will|could) (?:also )?(?:like|enjoy|be interested)\\b.*|' +
    'most (?:popular|read|viewed|shared|emailed)\\b.*|trending(?: now| stories| articles| posts)?|popular (?:posts|stories|articles|now|on)\\b.*|' +
    'recommended(?: for you| stories| articles| reading| posts)?|latest (?:news|stories|articles|posts|headlines)\\b.*|' +
    "top stories|also in (?:the )?news|(?:don['’]t|do not) miss\\b.*|editor['’]?s['’]? (?:picks|choice)|(?:recent|other|similar) (?:posts|stories|articles)|" +
    'mehr zum thema|das könnte sie (?:auch )?interessieren|weitere artikel|lesen sie auch|' +
    'à lire aussi|a lire aussi|sur le même sujet|articles? similaires|dans la même rubrique|' +
    'te puede interesar|también te puede interesar|noticias relacionadas|artículos relacionados|lo más leído)\\s*:?$',
  'i',
);

/**
 * Titles of newsletter sign-ups and paywall teasers: "Sign up for our newsletter", "Get the
 * newsletter", "Subscribe to …", "Never miss a story", "Already a subscriber?", "Subscribe to
 * continue reading", "This article is for subscribers".
 */
const TEASER_TITLE = new RegExp(
  '^(?:(?:sign up|subscribe|register|signup) (?:now |today )?(?:for|to) (?:our|the|my)\\b.*|subscribe (?:now|today|for free)\\b.*|(?:get|join) (?:our|the) (?:free |weekly |daily )?newsletters?\\b.*|' +
    '(?:our|the) (?:free |weekly |daily )?newsletters?|newsletters?(?: sign-?up)?|never miss (?:a|an)\\s.*|stay (?:informed|in the loop|up to date|updated)\\b.*|' +
    '(?:get|delivered) .{0,40}\\bto your inbox\\b.*|already (?:a )?(?:subscriber|member)\\b.*|(?:continue|keep) reading\\b.*(?:subscri|member|sign).*|' +
    '(?:this|the) (?:article|story|content) is (?:for|only for|available to|reserved for) (?:subscribers|members)\\b.*|' +
    '(?:unlock|get) (?:unlimited|full) access\\b.*|subscribe to (?:get|gain|unlock|keep|continue) (?:full |unlimited )?(?:access|reading).*|(?:on )?support(?:ing)? (?:our|independent|local|quality|science) journalism\\b.*|' +
    // The same in French, German and Spanish ("Cet article est réservé aux abonnés", "Dieser
    // Artikel ist für Abonnenten", "Weiterlesen mit …", "Este artículo es exclusivo para suscriptores").
    '(?:cet|cette) (?:article|contenu|information|enquête) est réservée? aux abonnés\\b.*|il vous reste \\d+ ?% de (?:cet|cette) \\S+ à lire\\b.*|déjà abonnée?\\b.*|' +
    '(?:dieser|der) (?:artikel|beitrag|inhalt) ist (?:nur )?für (?:abonnenten|abonnentinnen|abonnent\\*innen|abonnierende)\\b.*|(?:jetzt )?weiterlesen mit\\b.*|(?:sie sind )?bereits abonnent(?:in)?\\b.*|' +
    '(?:este|el) (?:artículo|contenido) es (?:exclusivo )?para suscriptores\\b.*|(?:ya )?(?:eres|soy) suscriptor\\b.*|' +
    // The pitch under a paywall or at the end of a free story.
    'unlock this (?:article|story)\\b.*|(?:this|the) (?:article|story) is exclusive to .{1,30}\\b(?:subscribers|members)\\b.*|' +
    "(?:since|now that) you(?:[’']ve| have)? (?:made it|read|got) (?:to|this far)\\b.*|we have a (?:small )?favou?r to ask\\b.*|" +
    // Deals and alerts by text message.
    'be the first to know\\b.*|(?:get|receive) .{0,40}\\btexted (?:right )?to your phone\\b.*)$',
  'i',
);

/**
 * sponsored-section: the title of a sponsor's section inside a story or a newsletter issue:
 * "GitHub Actions analytics – what's happening (Sponsored)", "Sponsored", "Sponsored by Acme",
 * "A word from our sponsor", "Today's sponsor", "[Ad]". The section is the title and what follows
 * it up to the next heading of its level.
 */
const SPONSORED_TITLE =
  /^(?:.{3,100}\s*[([](?:sponsored|sponsor|ad|advertisement|paid(?: post| content)?|partner content)[)\]]|[([]?(?:sponsored|advertisement)[)\]]?(?:\s+(?:content|post|section))?|sponsored by\s.{1,60}|(?:a )?(?:word|message) from (?:our|this week['’]s|today['’]s) sponsors?|(?:today['’]s|this (?:week|issue)['’]s) sponsors?|in partnership with\s.{1,60})\s*:?$/i;
/** Most text (characters) of a sponsor's section. */
const SPONSORED_MAX_TEXT = 1500;

/** Most text (characters) of a newsletter or paywall box: past this it is copy. */
const TEASER_MAX_TEXT = 600;
/** A rail of other stories is mostly links (their headlines): at least this share of its text. */
const RAIL_LINK_SHARE = 0.25;
/** Least share of link text in a rail of story cards whose excerpts are cut off with an ellipsis. */
const TEASER_CARD_LINK_SHARE = 0.1;
/** Least links in a rail of other stories. */
const RAIL_MIN_LINKS = 2;
/** A titled box never takes more than this share of the main box (a comment thread may). */
const RAIL_MAX_SHARE = 0.5;
/** Rails go only when the rest of the main box has at most this share of its text in links. */
const REST_LINK_SHARE = 0.3;
/** A comment-named box with more than this share of the main box's text is a wrapper. */
const WRAPPER_SHARE = 0.9;
/** Least prose (characters) the article must keep once comments, rails and teasers are gone. */
const ARTICLE_REST = 250;

export interface ArticleExtras {
  comments: Element[];
  rails: Element[];
  teasers: Element[];
  /** One-line pointers to other stories inside the text ("Related: …", "Also read: …"). */
  storyLinks: Element[];
  /** Photo credits as lines of their own ("Photo: Jane Doe/Reuters", "© AFP"). */
  credits: Element[];
  /** Boxes about the author after the article: the name (a link to the author's page) and a short bio. */
  authorBoxes: Element[];
  /** Lines between the headline and the first paragraph that label the story: a reading time, "Sponsored", the standfirst. */
  headerLines: Element[];
  /** Captions of the story's photos (see isPhotoCaption). */
  captions: Element[];
}

/**
 * The label of a one-line pointer to another story set in the article's flow: "Related:",
 * "Also read:", "Read more:", "See also:", "Read next:", and "Lesen Sie auch:", "Mehr zum
 * Thema:", "À lire aussi :", "Voir aussi :", "Lee también:", "Leer más:".
 */
const STORY_LINK_LABEL =
  /^(?:related(?: (?:story|stories|article|articles|reading|coverage|content))?|also read|read also|read more|see also|read next|also see|more on this|lesen sie (?:auch|mehr)|mehr zum thema|siehe auch|(?:à )?lire aussi|voir aussi|lee también|leer más|lea también|te puede interesar)\s*[:：|»›]\s*/i;
/** Most text (characters) of such a pointer: a headline, not a paragraph. */
const STORY_LINK_MAX = 220;
/** Least share of the pointer's text (after its label) that is link text: the headline is a link. */
const STORY_LINK_SHARE = 0.6;

/**
 * A photo credit as a line of its own: a credit label ("Photo:", "Photograph by", "Image
 * credit:", "Credit:", "Foto:", "Bild:", "Crédit photo :", "Imagen:", "©") and a short name.
 */
const CREDIT_LINE =
  /^\(?\s*(?:(?:photo|photograph|image|picture|illustration|foto|bild|imagen|fotografía)s?(?:\s+credits?)?\s*(?::|\bby\b|\bvon\b|\bpar\b)|credits?\s*:|crédits?(?:\s+photo)?\s*:|©|\(c\)\s)\s*(.+?)\s*\)?$/iu;
/** Class or id of a credit set beside a caption: "credit", "photo-credit", "image_credit", "copyright", "attribution", "caption__source". */
const CREDIT_CLASS =
  /(?:^|[\s_-])(?:credits?|photo-?credits?|image-?credits?|media-?credits?|copyright|attribution|(?:caption|image|photo|media|img|figure)[-_]*source)(?:$|[\s_-])/i;
/**
 * credit-data-attributes: what the markup calls a box, in its class and id and in the data
 * attributes that CSS-in-JS sites name their components by (data-theme-key="photo-credit-creditor",
 * data-testid="image-credit", data-component="caption-credit").
 */
function markupNames(el: Element): string {
  const a = el.attribs;
  return `${a.class ?? ''} ${a.id ?? ''} ${a['data-theme-key'] ?? ''} ${a['data-testid'] ?? ''} ${a['data-component'] ?? ''} ${a['data-element'] ?? ''}`;
}

/** Most characters of a credit line, and most words of the name it gives. */
const CREDIT_MAX = 100;
const CREDIT_MAX_WORDS = 8;
/** Share of the named words that are capitalised (names, agencies): "the mayor at the opening" is a caption. */
const CREDIT_NAME_SHARE = 0.6;

/**
 * The comment threads, story rails and sign-up or paywall teasers inside root, the main box of
 * a page that is neither a forum thread (where replies are the content) nor a list of items.
 * Empty when removing them would leave less than ARTICLE_REST characters of prose.
 */
export function articleExtras(root: Element, stats: Stats, opts: { article: boolean; description?: string | null }): ArticleExtras {
  const h1 = firstH1(root, stats);
  const keeps = (box: Element) => box !== root && !(h1 && (box === h1 || isAncestor(h1, box))) && startsAfterProse(box, root, stats);
  const [commentTitles, railTitles, teaserTitles, sponsorTitles] = findTitles(
    root,
    stats,
    [COMMENT_TITLE, STORY_RAIL_TITLE, TEASER_TITLE, SPONSORED_TITLE],
    true,
  );
  const comments = topMost([...commentBoxes(root, stats), ...titledBoxes(root, stats, COMMENT_TITLE, 1, { titles: commentTitles })]).filter(keeps);
  let rails = !opts.article
    ? []
    : titledBoxes(root, stats, STORY_RAIL_TITLE, RAIL_MAX_SHARE, { titles: railTitles }).flatMap((box) => {
        if (!keeps(box) || comments.some((c) => c === box || isAncestor(box, c))) return [];
        // A title alone in the flow (no box of its own): the rail is what follows it up to the next
        // heading of its level.
        let run = HEADING.test(box.name) || stats.anchors[stats.of(box)] === 0 ? followingRun(box, stats) : [box];
        // A lone rail title: a title in a box of its own (a CMS's label widget) with its stories in
        // the boxes that follow that box.
        if (run.length === 1 && stats.anchors[stats.of(box)] === 0) run = followingRun(loneTitleBox(box, root, stats), stats);
        let text = 0;
        let link = 0;
        let anchors = 0;
        for (const el of run) {
          const i = stats.of(el);
          text += stats.text[i]!;
          link += stats.link[i]!;
          anchors += stats.anchors[i]!;
        }
        // Story cards with a cut-off excerpt ("…Tuesday, December 1...") are teasers of other
        // stories even when the excerpt outweighs the linked headline.
        const share = truncatedTeasers(run) >= RAIL_MIN_LINKS ? TEASER_CARD_LINK_SHARE : RAIL_LINK_SHARE;
        return anchors >= RAIL_MIN_LINKS && link >= share * text && text <= RAIL_MAX_SHARE * stats.textOf(root) ? run : [];
      });
  // Rails go beside prose only: where the rest is headlines too (a news front page, a section's
  // archive), "Most read" and "More on …" are sections of the list itself.
  const restText = stats.textOf(root) - rails.reduce((n, el) => n + stats.textOf(el), 0);
  const restLink = stats.link[stats.of(root)]! - rails.reduce((n, el) => n + stats.link[stats.of(el)]!, 0);
  if (restLink > REST_LINK_SHARE * restText) rails = [];
  const teaserBoxes = !opts.article
    ? []
    : titledBoxes(root, stats, TEASER_TITLE, RAIL_MAX_SHARE, { titles: teaserTitles }).filter((box) => keeps(box) && stats.textOf(box) <= TEASER_MAX_TEXT);
  const sponsored = !opts.article ? [] : sponsoredSections(sponsorTitles!, root, stats).filter(keeps);
  const lines = opts.article ? lineExtras(root, stats) : { storyLinks: [], credits: [], pitches: [], notices: [], captions: [] };
  const storyLinks = lines.storyLinks.filter(keeps);
  // notices-anywhere: the fine print that PITCH_LINE knows (an affiliate disclosure, a price
  // disclaimer, "Follow us on …") goes wherever it stands, above the text too; a sign-up asked
  // for in the imperative goes only after some prose.
  const notices = lines.notices.filter((el) => !(h1 && (el === h1 || isAncestor(h1, el))));
  const teasers = [...teaserBoxes, ...sponsored, ...lines.pitches.filter(keeps), ...notices];
  const credits = lines.credits.filter((el) => !(h1 && (el === h1 || isAncestor(h1, el))));
  const captions = lines.captions.filter((el) => !(h1 && (el === h1 || isAncestor(h1, el))));
  const authorBoxList = opts.article ? authorBoxes(root, stats) : [];
  const goingBefore = [...comments, ...rails, ...teasers, ...storyLinks, ...credits, ...authorBoxList];
  const authors = opts.article ? [...authorBoxList, ...authorNotes(root, stats, goingBefore)].filter(keeps) : [];
  const header = opts.article ? headerLines(root, stats, h1, opts.description ?? null) : [];
  const all = topMost([...comments, ...rails, ...teasers, ...storyLinks, ...credits, ...authors, ...header, ...captions]);
  const rest = stats.goodOf(root) - all.reduce((n, el) => n + stats.goodOf(el), 0);
  if (!all.length || rest < ARTICLE_REST)
    return { comments: [], rails: [], teasers: [], storyLinks: [], credits: [], authorBoxes: [], headerLines: [], captions: [] };
  const kept = (list: Element[]) => list.filter((x) => all.includes(x));
  return {
    comments: kept(comments),
    rails: kept(rails),
    teasers: kept(teasers),
    storyLinks: kept(storyLinks),
    credits: kept(credits),
    authorBoxes: kept(authors),
    headerLines: kept(header),
    captions: kept(captions),
  };
}

/** The sections under sponsors' titles (headings only): each title and what follows it up to
 * the next heading of its level, when that is short (SPONSORED_MAX_TEXT). */
function sponsoredSections(titles: Element[], root: Element, stats: Stats): Element[] {
  const out: Element[] = [];
  for (const t of titles) {
    if (!HEADING.test(t.name) || t.name === 'h1') continue;
    const run = followingRun(t, stats);
    const text = run.reduce((n, el) => n + stats.textOf(el), 0);
    if (text <= SPONSORED_MAX_TEXT && text <= RAIL_MAX_SHARE * stats.textOf(root)) out.push(...run);
  }
  return out;
}

/** Block-level lines that hold a pointer to another story or a photo credit, and nothing else. */
function lineExtras(root: Element, stats: Stats): { storyLinks: Element[]; credits: Element[]; pitches: Element[]; notices: Element[]; captions: Element[] } {
  const storyLinks: Element[] = [];
  const credits: Element[] = [];
  const pitches: Element[] = [];
  const notices: Element[] = [];
  const captions: Element[] = [];
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    const len = stats.text[i]!;
    if (len === 0) return false;
    if (el.name === 'figcaption' && isPhotoCaption(el)) {
      captions.push(el);
      return false;
    }
    if (el === root || len > PITCH_MAX) return true;
    const text = plainText(el).replace(/\s+/g, ' ').trim();
    // A pitch is one line (a box of several lines is judged line by line).
    if (!hasBlockChild(el) && isPitch(text)) {
      (PITCH_LINE.test(text) ? notices : pitches).push(el);
      return false;
    }
    if (len > STORY_LINK_MAX) return true;
    const label = STORY_LINK_LABEL.exec(text);
    if (label && stats.anchors[i]! > 0 && stats.link[i]! >= STORY_LINK_SHARE * (text.length - label[0].length)) {
      storyLinks.push(el);
      return false;
    }
    if (len <= CREDIT_MAX && (CREDIT_CLASS.test(markupNames(el)) || isCredit(text))) {
      credits.push(el);
      return false;
    }
    return true;
  });
  return { storyLinks, credits, pitches, notices, captions };
}

/** A data figure's caption: "Figure 2.", "Fig. 3:", "Table 1", "Chart:", "Graph 4", "Abbildung 1", "Tableau 2". */
const DATA_CAPTION = /^\s*(?:fig(?:ure)?\.?|table|chart|graph|diagram|map|abbildung|abb\.|tabelle|tableau|tabla|gráfico|grafik)\s*(?:\d+|[A-Z]\b)?\s*[.:–—-]?/i;
/** What a data figure holds besides (or instead of) a picture. */
const DATA_FIGURE_TAGS = new Set(['table', 'pre', 'code', 'svg', 'canvas', 'math']);

/**
 * photo-captions-beside-article: the caption of a photo in a story (a <figcaption> in a figure
 * that holds a picture or a video) describes the picture, not the story, and readers and
 * article-body annotations skip it; the WCXB ground truth leaves out 644 of the 703 captions our
 * article text kept. A data figure's caption ("Figure 1. Water height…", a figure around a
 * table, a chart or code) is the text's own and stays.
 */
function isPhotoCaption(caption: Element): boolean {
  const figure = caption.parent;
  if (!figure || !isElement(figure) || figure.name !== 'figure') return false;
  if (DATA_CAPTION.test(plainText(caption))) return false;
  let picture = false;
  let data = false;
  let slot = false;
  let otherText = false;
  walk(figure, (n) => {
    if (n === caption) return false;
    if (isText(n)) {
      if (n.data.trim()) otherText = true;
      return false;
    }
    if (!isElement(n)) return false;
    if (DATA_FIGURE_TAGS.has(n.name)) data = true;
    else if (n.name === 'img' || n.name === 'picture' || n.name === 'video' || n.name === 'iframe') picture = true;
    else if (n !== figure) slot = true;
    return !data;
  });
  // photo-slot-caption: a figure whose picture is drawn by script leaves an empty media box
  // beside its caption (no image, no text, no table or code): it is a photo's figure all the same.
  return (picture || (slot && !otherText)) && !data;
}

/** Class or id of a box about the author: "author-bio", "author_box", "about-the-author", "saboxplugin-wrap" (Simple Author Box), "article-author-box". */
const AUTHOR_BOX_CLASS =
  /(?:author[-_]?(?:bio|box|info|card|profile|details|description|about|wrap)|about[-_]?(?:the[-_]?)?author|sabox|autorbox|autor[-_]?info|auteur[-_]?bio)/i;
/** A link to an author's own page: rel="author", or a path through /author/, /authors/, /autor/, /autoren/, /auteur/, /people/, /staff/, /profile/. */
const AUTHOR_HREF = /\/(?:authors?|autor(?:en)?|auteurs?|people|staff|profiles?|journalists?|contributors?)\/[^/?#]+/i;
/** Characters beside the name on its line in an author box ("About", "Written by", a role such as "Editor, Running Reviews"). */
const AUTHOR_NAME_SLACK = 40;
/** Most characters of an author box: a name, a role and a few lines of bio. */
const AUTHOR_BOX_MAX = 1000;

/**
 * Boxes about the author: a short box (at most AUTHOR_BOX_MAX characters) that its class names
 * as one, or that opens with a link to the author's own page (the name) and says more than the
 * name (a role, a bio). The page's byline "By Jane Doe" above the text is not such a box: it is
 * kept unless it comes after the prose.
 */
function authorBoxes(root: Element, stats: Stats): Element[] {
  const out: Element[] = [];
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    const len = stats.text[i]!;
    if (len === 0) return false;
    if (el === root || len > AUTHOR_BOX_MAX) return true;
    if (AUTHOR_BOX_CLASS.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`) || opensWithAuthorLink(el, stats)) {
      out.push(el);
      return false;
    }
    return true;
  });
  return out;
}

/** Most characters of a closing note about the writer: a line or two, not a paragraph of the story. */
const AUTHOR_NOTE_MAX = 400;
/** Least share of a note's text set in italics (<em>, <i>): the whole line is, bar punctuation. */
const AUTHOR_NOTE_ITALIC_SHARE = 0.9;
/** Least italic share of a closing note that the search reads past (its links may be plain). */
const AUTHOR_NOTE_NOTE_SHARE = 0.6;
/** A line of prose this long that is not in italics ends the search: the story's own last paragraph. */
const AUTHOR_NOTE_PROSE = 80;
/**
 * What a note about the writer says: a name (two to four capitalised words) followed by what the
 * person is or does ("Mirel Zaman is the health and fitness director at PS.", "Jane Doe, a
 * physician, writes …", "Manoj Jain is adjunct faculty at …"), or how to reach the writer
 * ("Contact staff writer Jill Barshay at …", "Reach the reporter at …", "Email the author …").
 */
const AUTHOR_NOTE =
  /^(?:(?:[\p{Lu}][\p{L}'’.-]*\s+){1,3}[\p{Lu}][\p{L}'’-]+,?\s+(?:is|was|has (?:been|written|covered)|writes|covers|teaches|lives|works|holds|serves|reports)\b)/u;
const AUTHOR_CONTACT = /^(?:contact|reach|email|e-mail|write to)\s+(?:(?:staff |senior |the )?(?:writer|reporter|author|columnist|correspondent|editor)\b)/iu;

/**
 * author-end-note: the closing lines set wholly in italics that introduce the writer or say how
 * to reach them ("Mirel Zaman is the health and fitness director at PS. She has …", "Contact
 * staff writer Jill Barshay at …") are about the writer, not the story, like an author box
 * without a class. Read from the end of the box back to the story's last plain paragraph; an
 * italic line that says something else there (an editor's note, a closing quote) stays, and so
 * does a plain closing paragraph about a person ("Maria Lopez is the mayor's new chief of
 * staff.") and any italic line before the story's end. Lines that the other rules take (`going`:
 * a donation box, a rail, a pitch) are read past.
 */
function authorNotes(root: Element, stats: Stats, going: Element[]): Element[] {
  const skip = new Set(going);
  const out: Element[] = [];
  let done = false;
  // walkNumbered visits a box's children last to first, so lines (which do not nest) come from
  // the end of the box back; the walk stops at the story's last plain paragraph.
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    // What the other rules take (a donation box, a rail, a pitch) is not the story's end.
    if (done || stats.text[i]! === 0 || skip.has(el)) return false;
    if (el === root || hasBlockChild(el)) return true;
    const text = plainText(el).replace(/\s+/g, ' ').trim();
    const italic = italicShare(el);
    if (italic < AUTHOR_NOTE_ITALIC_SHARE) {
      // A plain paragraph is the story's; a mostly italic one (a closing note with a plain
      // link in it) is another note, read past.
      if (italic < AUTHOR_NOTE_NOTE_SHARE && text.length >= AUTHOR_NOTE_PROSE && !(text.length <= PITCH_MAX && isPitch(text))) done = true;
    } else if (text.length <= AUTHOR_NOTE_MAX && (AUTHOR_NOTE.test(text) || AUTHOR_CONTACT.test(text))) out.push(el);
    return false;
  });
  return out;
}

/** Share of an element's letters and digits that sit inside <em> or <i>. */
function italicShare(el: Element): number {
  let all = 0;
  let italic = 0;
  const count = (n: AnyNode, inItalic: boolean): void => {
    if (isText(n)) {
      const c = n.data.replace(/[^\p{L}\p{N}]/gu, '').length;
      all += c;
      if (inItalic) italic += c;
    } else if (isElement(n)) {
      const it = inItalic || n.name === 'em' || n.name === 'i';
      for (const k of n.children) count(k, it);
    }
  };
  count(el, false);
  return all ? italic / all : 0;
}

/** True when the first text of el is inside a link to an author's page and el says more than the name. */
function opensWithAuthorLink(el: Element, stats: Stats): boolean {
  let first: Element | null = null;
  let done = false;
  walk(el, (n) => {
    if (done) return false;
    if (isText(n)) {
      if (n.data.trim()) done = true;
      return false;
    }
    if (!isElement(n)) return false;
    if (n.name === 'a' && stats.textOf(n) > 0) {
      first = n;
      done = true;
      return false;
    }
    return true;
  });
  const a = first as Element | null;
  if (!a) return false;
  const href = a.attribs.href ?? '';
  const rel = a.attribs.rel ?? '';
  if (!/\bauthor\b/i.test(rel) && !AUTHOR_HREF.test(href)) return false;
  // The name on a line of its own: a paragraph that opens with a linked name is prose.
  let line: Element = a;
  while (line.parent && line.parent !== el && isElement(line.parent)) line = line.parent;
  if (line === a && !LINE_BLOCKS.test(a.name)) {
    // The link is a direct child of el: el is a line itself, unless a break follows the name.
    const next = a.next && isText(a.next) && !a.next.data.trim() ? a.next.next : a.next;
    if (!(next && isElement(next) && (next.name === 'br' || LINE_BLOCKS.test(next.name)))) return false;
  } else if (stats.textOf(line) > stats.textOf(a) + AUTHOR_NAME_SLACK) return false;
  // The name and a bio: a box that is only the name (or "By Jane Doe") is a byline.
  return stats.textOf(el) - stats.textOf(a) >= 60 && stats.link[stats.of(el)]! < 0.5 * stats.textOf(el);
}

/** A byline's label left without its name (the name drawn by script): "By", "Von", "Par". */
const BARE_BYLINE = /^(?:by|von|par|por|door|di|av|af)$/i;
/** A reading time: "3 min read", "3 MIN. READ", "Lecture 3 min.", "3 Min. Lesezeit", "Reading time: 4 minutes". */
const READING_TIME =
  /^(?:(?:reading time|lesezeit|lecture|temps de lecture|lectura)\s*:?\s*)?(?:ca\.\s*)?\d+\s*(?:min(?:ute)?s?|minuten)\.?(?:\s*(?:read|reading|de lecture|lesezeit|lectura|de leitura))?\.?$/i;
/** A sponsor's label over the story: "Sponsored", "• SPONSORED •", "Sponsored by …", "Paid content", "Anzeige", "Sponsorisé". */
const SPONSOR_LABEL =
  /^[•·|\s]*(?:sponsored|sponsored content|advertorial|paid (?:post|content|partnership)|partner content|anzeige|sponsorisé|contenu sponsorisé|patrocinado)(?:\s+by\s+.{1,60})?[•·|\s]*$/i;
/** Fewest words of a standfirst known only by repeating the page's description. */
const STANDFIRST_MIN_WORDS = 8;
/** Most characters of a line between the headline and the text that can be one of these labels. */
const HEADER_LINE_MAX = 300;
/** A line of at least this many characters that is none of them is the story's first paragraph. */
const FIRST_PARAGRAPH = 100;

/**
 * The lines between the headline and the first paragraph that label the story rather than tell
 * it: a reading time, a sponsor's label, a byline's label left without its name, and the
 * standfirst when it repeats the page's description inside the headline's <header>. Read in
 * document order from the H1 (or from the top when the box has none) and stopped at the first
 * line that is none of these and is long enough to be prose. A byline with its name and the
 * date line stay: the content score reads the author and the visible dates from this text.
 */
function headerLines(root: Element, stats: Stats, h1: Element | null, description: string | null): Element[] {
  const out: Element[] = [];
  const desc = description ? squash(description) : '';
  let started = h1 === null;
  let stopped = false;
  const visit = (el: Element): void => {
    if (stopped) return;
    const i = stats.of(el);
    if (i < 0 || stats.text[i] === 0) return;
    if (el === h1) {
      started = true;
      return;
    }
    if (!started && h1 && !isAncestor(h1, el)) {
      // Above the headline, in its box: a sponsor's label or a reading time over the title.
      if (stats.text[i]! <= HEADER_LINE_MAX && !hasBlockChild(el) && isKicker(el)) out.push(el);
      return;
    }
    const line = el !== root && (!hasBlockChild(el) || (stats.text[i]! <= HEADER_LINE_MAX && !containsEl(el, h1)));
    if (!line || !started) {
      for (const k of el.children) if (isElement(k)) visit(k);
      return;
    }
    if (stats.text[i]! <= HEADER_LINE_MAX && isHeaderLine(el, desc)) {
      out.push(el);
      return;
    }
    if (hasBlockChild(el)) {
      for (const k of el.children) if (isElement(k)) visit(k);
      return;
    }
    if (stats.text[i]! >= FIRST_PARAGRAPH) stopped = true;
  };
  visit(root);
  return out;
}

function isHeaderLine(el: Element, desc: string): boolean {
  const text = plainText(el).replace(/\s+/g, ' ').trim();
  if (!text) return false;
  if (BARE_BYLINE.test(text) || READING_TIME.test(text) || SPONSOR_LABEL.test(text)) return true;
  // The standfirst repeats the page's description; a line of the text that does so (a site
  // that takes its description from the first heading or paragraph) is spared unless it sits
  // in the headline's own box (<header>, <hgroup>) and reads as a sentence, not a title.
  return desc !== '' && insideHeaderBox(el) && squash(text) === desc && desc.split(' ').length >= STANDFIRST_MIN_WORDS;
}

function isKicker(el: Element): boolean {
  const text = plainText(el).replace(/\s+/g, ' ').trim();
  return READING_TIME.test(text) || SPONSOR_LABEL.test(text);
}

function squash(s: string): string {
  return (s.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ').toLowerCase();
}

function insideHeaderBox(el: Element): boolean {
  for (let p = el.parent; p && isElement(p); p = p.parent) if (p.name === 'header' || p.name === 'hgroup') return true;
  return false;
}

function containsEl(box: Element, el: Element | null): boolean {
  return el !== null && (box === el || isAncestor(el, box));
}

const LINE_BLOCKS = /^(?:p|div|h[1-6]|ul|ol|li|section|article|header|footer|figure|figcaption|blockquote|table|aside|nav|main|dl|pre|form|hgroup)$/;
function hasBlockChild(el: Element): boolean {
  return el.children.some((k) => isElement(k) && LINE_BLOCKS.test(k.name));
}

/** Most characters of a sign-up pitch, a consent line or a price disclaimer set as a line of its own. */
const PITCH_MAX = 350;
/** A sign-up, an app download or a subscription asked for in the imperative: "Sign up now", "Subscribe to …", "Download … the app". */
const PITCH_ASK = /(?:^|[.!?]\s+|\s[-–—]\s)(?:sign up|subscribe|join|register|download|get (?:it|the app|our app)|try it)\b/i;
/** What is pitched: a newsletter, the inbox, an app, texts to a phone. */
const PITCH_OBJECT = /\b(?:newsletters?|inbox|app|texted|text messages|sms)\b/i;
/**
 * reader-appeal: a story's appeal for its reader's support, as a line of its own ("If you're
 * enjoying this article, consider supporting our award-winning journalism by subscribing.").
 * A sentence that reports on support ("Readers who consider supporting the paper …") asks
 * nothing and stays.
 */
const READER_APPEAL =
  /^(?:(?:if you(?:['’]re| are) enjoying (?:this|our) (?:article|story|reporting|journalism)\b.{0,40}\b)?(?:please )?consider (?:supporting|subscribing to|donating to) (?:us|our|this)\b.*)$/iu;

/**
 * Lines of a sign-up box that has no title of its own, and the fine print of shopping stories:
 * "By signing up, you agree to …", "Thanks for signing up!", "Prices were accurate at the time
 * this article was published …", "Deal pricing and availability subject to change …", "If you
 * buy … we may earn an affiliate commission".
 */
const PITCH_LINE =
  /^(?:republish (?:our|this) (?:articles?|stor(?:y|ies)|content)\b.{0,40}\b(?:free|creative commons|licen[cs]e)\b.*|.{0,60}\b(?:each|every|all) (?:products?|items?|deals?)(?: (?:featured|we feature|on this page|we recommend))? (?:is|are|was|were|has been|have been) independently (?:selected|chosen|reviewed|vetted)\b.*|(?:.{0,160}[.!?]\s+)?(?:(?:be sure|make sure|don['’]t forget) to |please )?follow (?:us|me|[\p{Lu}][\p{L}.&' ]{0,30}) on (?:facebook|twitter|x|instagram|tiktok|linkedin|youtube|flipboard|threads|bluesky|whatsapp|telegram|google news|social media)\b.*|(?:.{0,160}[.!?]\s+)?support [\p{Lu}][^.!?]{0,40}[!.:]\s*(?:donate|become a (?:patron|member|supporter)|make a (?:donation|contribution))\b.*|read (?:more|the rest) of (?:this|the) (?:content|article|story|post)\b.{0,20}\bsubscri.*|you (?:need|have|must) to (?:log ?in|sign ?in|register|subscribe)\b.{0,40}\bto (?:view|read|see|access|manage|save|comment)\b.*|by (?:signing up|subscribing|clicking|submitting)\b.{0,40}\byou (?:agree|consent|accept)\b.*|thanks? (?:you )?for (?:signing up|subscribing)\b.{0,40}|(?:prices?|deal pricing)\b.{0,80}\b(?:subject to change|may change|accurate at the time)\b.*|.{0,120}\bif you (?:buy|purchase|click)\b.{0,80}\bwe (?:may )?(?:earn|receive|get) (?:a |an )?(?:small )?(?:affiliate )?commission\b.*)$/iu;

/**
 * A pitch as a line of its own in the article's flow: a sign-up asked for in the imperative
 * with what it brings ("USA TODAY's Watch Party newsletter … delivered right to your inbox.
 * Sign up now"), or one of PITCH_LINE's lines. Prose that reports on a newsletter ("the
 * newsletter has 50,000 subscribers; sign-ups doubled") asks nothing and stays.
 */
function isPitch(text: string): boolean {
  return PITCH_LINE.test(text) || (PITCH_ASK.test(text) && PITCH_OBJECT.test(text)) || READER_APPEAL.test(text);
}

function isCredit(text: string): boolean {
  const m = CREDIT_LINE.exec(text);
  if (!m) return false;
  // "©iStock.com/fizkes" stays one word: the name after a site's slash is the site's.
  const words = m[1]!
    .split(/[\s;,|&]+|(?<!\.(?:com|net|org))\//)
    .filter((w) => /\p{L}/u.test(w) && !/^(?:and|und|et|y|via|for|für|pour|para|de|von|van|der|la|le)$/i.test(w));
  if (!words.length || words.length > CREDIT_MAX_WORDS) return false;
  // "©iStock.com/fizkes": a marked or a site's name is a name whatever its case.
  return words.filter((w) => /^[\p{Lu}\d©]/u.test(w) || /\.(?:com|net|org)$/i.test(w)).length >= CREDIT_NAME_SHARE * words.length;
}

/** Top-most boxes under root named as a comment thread, or holding one schema.org Comment. */
function commentBoxes(root: Element, stats: Stats): Element[] {
  const out: Element[] = [];
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    if (el === root) return true;
    if (isThreadBox(el)) {
      // A box so named that holds nearly all of root wraps the article too: the thread is inside.
      if (stats.text[i]! > WRAPPER_SHARE * stats.textOf(root)) return true;
      out.push(el);
      return false;
    }
    return true;
  });
  return out;
}

/** Inline boxes named for comments are comment-count links ("12 comments") on a card or byline. */
const INLINE = new Set(['a', 'span', 'small', 'b', 'strong', 'em', 'i', 'time', 'button', 'label']);
/** Least text (characters) of a comment thread taken out of a whole page. */
const THREAD_MIN_TEXT = 100;

/** A box named as a comment thread (class/id), or one schema.org Comment, that is not inline. */
function isThreadBox(el: Element): boolean {
  if (INLINE.has(el.name)) return false;
  const a = el.attribs;
  return isCommentSection(el) || a.itemprop === 'comment' || (a.itemtype !== undefined && COMMENT_ITEMTYPE.test(a.itemtype));
}

function holdsHeadOrMain(el: Element): boolean {
  let found = false;
  walk(el, (n) => {
    if (found || !isElement(n)) return false;
    if (n.name === 'h1' || n.name === 'main' || n.attribs.role === 'main') found = true;
    return !found;
  });
  return found;
}

const HEADING = /^h[1-6]$/;

/** The title and its following siblings up to the next heading of its level or higher (or a box
 * holding one). */
function followingRun(title: Element, stats: Stats): Element[] {
  const level = HEADING.test(title.name) ? Number(title.name[1]) : 6;
  const parent = title.parent;
  if (!parent || !isElement(parent)) return [title];
  const run = [title];
  let after = false;
  for (const k of parent.children) {
    if (k === title) {
      after = true;
      continue;
    }
    if (!after || !isElement(k) || stats.of(k) < 0) continue;
    if (opensSection(k, level)) break;
    run.push(k);
  }
  return run;
}

/** The outermost box around title that holds no other text (below root). */
function loneTitleBox(title: Element, root: Element, stats: Stats): Element {
  let box = title;
  const len = stats.textOf(title);
  for (let p = box.parent; p && isElement(p) && p !== root && stats.textOf(p) === len; p = p.parent) box = p;
  return box;
}

/** Lines in els cut off with an ellipsis: the excerpts of story cards. */
function truncatedTeasers(els: Element[]): number {
  let n = 0;
  for (const el of els)
    walk(el, (node) => {
      if (!isElement(node)) return false;
      if (node.name === 'p' || node.name === 'div' || node.name === 'span') {
        const own = node.children
          .map((c) => (isText(c) ? c.data : ''))
          .join('')
          .trim();
        if (own.length >= 40 && /(?:\.\.\.|…)$/.test(own)) n++;
      }
      return true;
    });
  return n;
}

function opensSection(el: Element, level: number): boolean {
  let found = false;
  walk(el, (n) => {
    if (found || !isElement(n)) return false;
    if (HEADING.test(n.name) && Number(n.name[1]) <= level) found = true;
    return !found;
  });
  return found || (HEADING.test(el.name) && Number(el.name[1]) <= level);
}

function firstH1(root: Element, stats: Stats): Element | null {
  let found: Element | null = null;
  walkNumbered(root, stats, (i) => {
    if (found) return false;
    if (stats.els[i]!.name === 'h1') found = stats.els[i]!;
    return !found;
  });
  return found;
}

/** True when some of root's prose comes before box in document order: a thread or a rail follows
 * the article; a box that opens the main box is its start, not something beside it. */
function startsAfterProse(box: Element, root: Element, stats: Stats): boolean {
  for (let el: Element = box; el !== root; ) {
    const parent = el.parent;
    if (!parent || !isElement(parent)) return false;
    for (const k of parent.children) {
      if (k === el) break;
      if (isElement(k) && stats.goodOf(k) > 0) return true;
    }
    el = parent;
  }
  return false;
}

function topMost(boxes: Element[]): Element[] {
  const unique = [...new Set(boxes)];
  return unique.filter((b) => !unique.some((o) => o !== b && isAncestor(b, o)));
}

/** Least text (characters) the page must keep outside its comment threads for them to go before
 * the main box is chosen. */
const PAGE_REST = 500;

/**
 * Comment threads of a whole (pruned) page that is not a forum, taken out before the main box is
 * chosen: a long thread holds more prose than the article it is under and would be chosen
 * instead. Top-most boxes named as a thread (class/id) or holding one schema.org Comment; none
 * when the page keeps less than PAGE_REST characters without them.
 */
export function pageCommentThreads(body: Element, bodyText: number): Element[] {
  const out: Element[] = [];
  walk(body, (n) => {
    if (!isElement(n)) return false;
    if (isThreadBox(n)) {
      // A wrapper that holds the article's title or the page's <main> (a layout box with an
      // unlucky name): look inside.
      if (holdsHeadOrMain(n)) return true;
      if (textLength(n) >= THREAD_MIN_TEXT) out.push(n);
      return false;
    }
    return true;
  });
  const threads = out.reduce((sum, el) => sum + textLength(el), 0);
  return out.length && bodyText - threads >= PAGE_REST ? out : [];
}

/** The main box is an <article> or sits in one, or holds the text the markup names as an article's body. */
export function isArticleBox(root: Element): boolean {
  for (let p: ParentNode | null = root; p && isElement(p as AnyNode); p = (p as Element).parent) if ((p as Element).name === 'article') return true;
  let body = false;
  walk(root, (n) => {
    if (body || !isElement(n)) return false;
    if (n.attribs.itemprop === 'articleBody') body = true;
    return !body;
  });
  return body;
}
