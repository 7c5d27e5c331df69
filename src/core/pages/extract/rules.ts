// The extractor's rule tables: the thresholds, class and URL patterns and word lists its
// heuristics apply, by the part of the pipeline that applies them (../page-kind.ts,
// references.ts, links.ts, junk-lines.ts, fallbacks.ts, commerce.ts, forum.ts, boilerplate.ts
// and index.ts). Changing a value here changes what the extractor keeps: check it with
// bench/extract.ts.

// --- Shares of the main box that pruning inside it keeps to

/** Weak boilerplate (sidebars, related rails) inside the main subtree goes below this share of its text. */
export const WEAK_SHARE = 0.5;

/** The same on product pages (reviews, carousels of other products). */
export const PRODUCT_WEAK_SHARE = 0.85;

/** Lists of other products' cards go from a product page's main box below this share of it. */
export const PRODUCT_CARDS_SHARE = 0.5;

/** Below this share of the box they go even when no price stands outside them. */
export const PRODUCT_CARDS_MINOR = 0.35;

/** Reviews and other products' carousels go before the main box is chosen below this share of the page. */
export const PRODUCT_EXTRAS_SHARE = 0.5;

/** Boxes of bare links inside the main subtree go below this share of its text. */
export const LINK_SHARE = 0.2;

// --- Sidebars of widgets

/** A sidebar box (class or id token "sidebar") holding a CMS's widgets (class token "widget" or "widget_…"). */
export const SIDEBAR_TOKEN = /(?:^|\s)sidebar(?:\s|$)/i;

export const WIDGET_TOKEN = /(?:^|\s)(?:widget|widget_[\w-]+)(?:\s|$)/i;

// --- Commerce pages: products and collections

export const PRODUCT_URL = /^\/(?:[^/]+\/)*(?:products?|dp|itm|ip|pdp)\/[^/]+|^\/(?:[^/]+\/)*p\/[^/]*\d/i;

/**
 * shop-terms-section: the title of a product page's section on the shop's own terms, as a whole
 * line ("Shipping & Returns", "Delivery and returns", "Return policy", "Livraison", "Versand und
 * Rückgabe"): the same on every product, not this one's description.
 */
export const SHOP_TERMS_TITLE =
  /^(?:free |fast )?(?:shipping|delivery|returns?|exchanges?|livraison|retours?|versand|lieferung|rückgabe|envíos?|devoluciones)(?:\s*(?:&|and|\+|,|\/|et|und|y)\s*(?:free )?(?:shipping|delivery|returns?|exchanges?|retours?|rückgabe|devoluciones|warranty))*(?:\s+(?:policy|policies|information|info|details|options))?\s*:?$/i;

/** Longest shop-terms title (characters): a box holding no more is the title alone. */
export const SHOP_TERMS_TITLE_MAX = 60;

/** A shop-terms section never takes more than this share of the main box's text. */
export const SHOP_TERMS_MAX_SHARE = 0.3;

/**
 * list-description: class/id words a CMS gives the description of a category, tag, archive or
 * collection page ("archive-description", "term-description", "category-description",
 * "collection-description", "category-header_description", "taxonomy-intro").
 */
export const LIST_DESCRIPTION =
  /(?:^|[^a-z])(?:archive|taxonomy|term|category|collection|catalog)(?:[-_]{1,2}header)?[-_]{1,2}(?:description|desc|intro)(?:$|[^a-z])/i;

/** Least prose (characters) of a list's description, and most text: past it, it is a section of its own. */
export const LIST_DESCRIPTION_MIN_PROSE = 80;
export const LIST_DESCRIPTION_MAX_TEXT = 3000;

/** og:type of a group of products (Facebook's product.group: a shop's collection page). */
export const PRODUCT_GROUP_OG = /product[.:_]?group/i;

/** JSON-LD types of a page that lists things (a category, a shop's collection, search results). */
export const COLLECTION_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:CollectionPage|SearchResultsPage)$/i;

/** A microdata item type naming a product (itemtype="https://schema.org/Product"). */
export const PRODUCT_ITEMTYPE = /^\s*https?:\/\/schema\.org\/(?:Product|IndividualProduct|ProductModel)\s*$/i;

export const PRODUCT_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:Product|ProductGroup|IndividualProduct)$/i;

// --- Forum pages

/** Class words, inside a forum post, of a quoted earlier post, the poster's signature and the
 * poster's details (join date, post count): XenForo, Invision, phpBB, vBulletin, Discourse. */
export const POST_CHROME =
  /(?:^|[^a-z])(?:quote|ipsquote|quotecontent|signature|sig|userinfo|user-info|postprofile|message-userdetails|message-user|author-info|userdetails|user-details|postbit-user)(?:$|[^a-z])/i;

/**
 * forum-post-chrome-lines: whole lines that a forum or Q&A engine writes around every post or
 * thread, not the posters: counters ("12 likes", "4 Answers", "Posts: 1,077", "Threads: 23"),
 * poster details ("Join Date: Aug 2008"), post tools ("Reply With Quote", "Report inappropriate
 * content", "Last edited: Jul 5, 2024"), a closed thread's notice ("Not open for further
 * replies.", "This topic was automatically closed after 30 days…"), a mobile app's signature
 * ("Sent from my SM-S908U using Tapatalk") and a Q&A site's prompts ("Start asking to get
 * answers", "Explore related questions", "You must log in to answer this question.").
 * Only on forum pages, and only as a whole line.
 */
export const FORUM_CHROME_LINE =
  /^(?:\d[\d,.]*\s*k?\s+(?:likes?|answers?|replies|repl(?:y|ies)|views?|votes?|posts?)|(?:posts|threads|messages|reaction score|points|joined|join date|location|likes received|reputation)\s*:\s*.{0,30}|reply with quote|(?:multi-?)?quote|report(?: inappropriate content| post| abuse)?|last edited(?: by .{1,40})?\s*:?.{0,40}|(?:thread )?not open for further replies\.?|this (?:topic|thread) was automatically closed\b.{0,80}|sent from my .{1,60} using .{1,40}|start asking to get answers|find the answer to your question by asking\.?|explore related questions|see similar questions with these tags\.?|you must log in to answer this question\.?|top posters in this topic|(?:more )?(?:latest|recent) posts)$/i;

/** Forum and Q&A URL shapes and structured data: there the replies are the content. */
export const FORUM_URL = /(?:^|\/)(?:forums?|threads?|topics?|t|discussions?|community|questions|post|comments|viewtopic|showthread)(?:\/|\.php|$)/i;

/** A path segment or host label that names a forum ("/travel-forum/…", "forums.example.com", "someforum.com"). */
export const FORUM_NAME = /forum/i;

export const FORUM_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:DiscussionForumPosting|QAPage|SocialMediaPosting|Question)$/i;

/** The same types in microdata (itemtype="https://schema.org/DiscussionForumPosting"). */
export const FORUM_ITEMTYPE = /^\s*https?:\/\/schema\.org\/(?:DiscussionForumPosting|QAPage|SocialMediaPosting)\s*$/i;

// --- Articles

/** Microdata of an article (schema.org Article and its news and blog kinds). */
export const ARTICLE_ITEMTYPE =
  /^\s*https?:\/\/schema\.org\/(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|Report|ScholarlyArticle|TechArticle)\s*$/i;

export const ARTICLE_TYPES =
  /^(?:https?:\/\/schema\.org\/)?(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|Report|ScholarlyArticle|TechArticle|LiveBlogPosting)$/i;

// --- References and sources after an article

/** Class or id of a reference list ("references", "reflist", "sources", "footnotes", "bibliography"). */
export const REFERENCE_CLASS =
  /(?:^|[\s_-])(?:references?|reflist|sources|citations|footnotes|bibliography|quellen|einzelnachweise|fuentes|referencias|bibliographie)(?:$|[\s_-])/i;

/** A heading that opens a reference list. */
export const REFERENCE_HEADING =
  /^(?:(?:article )?sources?|references?|bibliography|citations?|works cited|footnotes|notes and references|quellen|quellenangaben|einzelnachweise|literatur|sources et références|références|bibliographie|fuentes|referencias|bibliografía)\s*:?$/i;

export const REFERENCE_TAGS = new Set(['section', 'div', 'aside', 'ol', 'ul', 'footer']);

/** A reference list this long is a page of its own, not an article's sources. */
export const REFERENCE_MAX_CHARS = 20_000;

// --- Links

/** Longest link text kept (characters); a link is a label, not a passage. */
export const LINK_TEXT_MAX = 300;

// --- Fallbacks when the static text says little

/** Below this many words of extracted text, the JSON-LD body is used when it says more. */
export const LD_FALLBACK_WORDS = 50;

/** Least words of a JSON-LD body worth using. */
export const LD_MIN_WORDS = 30;

/** Keys of shoppers' or critics' reviews in JSON-LD: a review's text is not the page's body. */
export const LD_REVIEWS = /^reviews?$/i;

/** Most words of a main text that is judged by whether it relates to the page's title. */
export const UNRELATED_MAX_WORDS = 8;

/** Scripts written without spaces between words, where whole-word matching says nothing. */
export const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f]/u;

// --- Junk lines: lines and blocks that are not copy

/** Placeholder copy a theme ships with ("Lorem ipsum dolor sit amet…"), left in a template's
 * unused slide or tab: never the page's content. */
export const PLACEHOLDER = /^\s*lorem ipsum\b/i;

/** A line that is a widget's state, not copy: a gallery or carousel position ("3 of 11", "Slide 2
 * of 5", "Image 4 of 8"), a loading placeholder ("Loading", "Loading…", "Loading reviews..."), a missing
 * image's note ("Image unavailable"), a zoom hint ("Click to see full view"). */
export const CONTROL_LINE =
  /^\s*(?:\d+ of \d+|(?:hero )?(?:image|slide|photo|picture|item)s? \d+ (?:of|\/) \d+|loading(?:(?:\s+\p{L}+){0,2}\s*(?:\.{3}|…))?|click to (?:see|view) full view|image (?:not available|unavailable)\b.*)\s*$/iu;

/**
 * card-counter: a count a product card or tile shows beside its name, as a whole line: the
 * reviews count in parentheses ("(24)"), the swatches not shown ("+7"), the reviews count spelled
 * out ("80 Reviews", "4.9 1,316 reviews", "12 ratings"). A widget's figure, not copy. A year in
 * parentheses ("(2024)", a film's) is copy; a page that declares an article keeps them all.
 */
export const CARD_COUNTER_LINE = /^\s*(?:\((?!(?:19|20)\d\d\))\d[\d,.]*k?\)|\+\s?\d{1,3}|(?:[0-5][.,]\d\s*)?\(?\d[\d,.]*k?\)?\s+(?:reviews?|ratings?))\s*$/i;

/**
 * A listing's controls and counters, as whole lines: "Skip to product list", "Sort by: Best
 * Match", "View:", "Showing 1–24 of 240 results", "(52 products)", "Products (52)", "1–30 of 143".
 * They report on and steer the list rather than being part of it.
 */
export const LISTING_CONTROL = new RegExp(
  '^(?:skip to (?:main )?(?:content|product list|products|results)|sort(?: by\\b\\s*:?|\\s*:)(?:\\s*.{0,30})?|(?:view|display|show)\\s*:|(?:items )?per page\\s*:?|' +
    '(?:showing|displaying|viewing)\\s.{0,40}\\b(?:results?|products?|items?)\\)?|\\(?\\d[\\d,]*\\s+(?:results?|products?|items?)\\)?|' +
    '(?:products?|results?|items?)\\s*\\(\\d[\\d,]*\\)|\\d[\\d,]*\\s*[–-]\\s*\\d[\\d,]*\\s+of\\s+\\d[\\d,]*(?:\\s+(?:results?|products?|items?))?)$',
  'i',
);

/** Longest line tested against LISTING_CONTROL (characters). */
export const LISTING_CONTROL_MAX = 60;

/**
 * Whole lines that are a site's chrome wherever they stand: account and cart links ("Log in",
 * "Register", "Click here to register", "My account", "Cart (2)"), call-to-action link labels
 * ("Read more", "Read full article", "Shop now", "View all") and merchandising badges ("Best
 * seller", "Sponsored", "New arrival", "Recommended for you"), and a news page's labels: the
 * mark over an ad slot ("Advertisement", "Anzeige", "Publicité", "Publicidad", "Advertisement.
 * Scroll to continue reading."), a caption's toggle ("Show caption") and "End of article", and a
 * share bar's or a widget's label ("Share this:", "Back to top", "(Visited 1,902 times, 364
 * visits today)", "Add as a preferred source on Google"). Only
 * as a whole line: "Sign in to your dashboard and open Settings" is a step of a guide.
 */
export const CHROME_LINE =
  /^(?:log ?in|log-in|log ?out|sign ?in|sign-in|sign ?out|register|sign ?up|create (?:an |your )?account|my account|wish ?list|my wish ?list|(?:my |view )?cart(?: \(\d+\))?|checkout|forgot (?:your )?password\??|lost your password\??|click here to (?:log-?in|register|sign ?in)|read more|read (?:the )?full (?:article|story|review)|learn more|shop now|shop all|view all|see all|see more|view more|show more|continue reading|discover more|find out more|best ?seller|sponsored|new arrivals?|recommended for you|new colou?rs?|advertisement(?:\. scroll to continue(?: reading)?\.?)?|anzeige|publicité|publicidad|(?:show|hide) caption|end of (?:the )?article|share this(?: (?:article|story|post))?:?|back to top|add (?:us )?as a (?:preferred|trusted|reliable(?: and trusted)?) (?:news )?source(?: (?:on|for) google)?\.?|add now!?|\(visited [\d,]+ times?(?:, [\d,]+ visits? today)?\))$/iu;

/** Account and cart words that a heading may rightly be ("Sign in" in a guide's steps). */
export const CHROME_ACCOUNT = /^(?:log|sign|register|create|my account|forgot|lost|checkout|click here)/iu;

/**
 * feedback-prompt: a page's prompts for the reader's feedback on the page itself, as whole lines:
 * "See any errors on this page?", "Report an issue with this product or seller", "Would you like
 * to tell us about a lower price?", "Found a lower price? Let us know. …", "Please sign in to
 * provide feedback.", "Was this page helpful?", "Write a review", "Be the first to review this
 * product", and a tool bar's bare "Print" and "Share". The page's widget asking about the page,
 * never its copy: "Report an error regarding a runtime event" (a table row of an API's events) and
 * "Was this helpful to you, we asked readers" (a sentence) stay.
 */
export const FEEDBACK_PROMPT_LINE =
  /^(?:see (?:any|an) (?:errors?|mistakes?) on this page\??|found an? (?:error|mistake|typo) on this page\??|report (?:an? )?(?:issue|problem|error) with this (?:product|item|listing|page)(?: or seller)?\.?|report incorrect product information\.?|would you like to tell us about a lower price\??|where did you see a lower price\??|found a lower price\? let us know\..{0,200}|please sign in to provide feedback\.?|was this (?:page |article |information |answer |review )?(?:helpful|useful)\??|write a review|be the first to (?:write a )?review(?: this (?:product|item))?\.?|print|share:?)$/iu;

/**
 * screen-reader-copy: class words of text a page writes for screen readers only, beside what it
 * draws: a price's "Price $ 79.00" next to the drawn "$79.00", "Sale price:" before it. Pruning
 * before the main box is chosen knows "screen-reader-text", "sr-only" and "visually-hidden";
 * these spellings ("screen-reader-only", "screenreader-only", "ScreenReaderText", "sr-text",
 * "assistive-text") go from the chosen box only, so that they do not change which box is chosen.
 */
export const SCREEN_READER_COPY = /(?:^|[^a-z])(?:screen-?reader-?(?:text|only)|sr-only|sr-text|assistive-text)(?:$|[^a-z])/i;

/** Most words of a screen reader's copy: a label or a price. A sentence written for screen
 * readers ("Mailchimp has a four and half star rating") stands for a picture (the stars) and stays. */
export const SCREEN_READER_COPY_MAX_WORDS = 6;

// --- Rating summaries on product pages

/** One cell of a rating histogram: a star label ("5 ★", "4 stars"), a share ("57%"), a count ("8") or its "4.1 Based on 14 Reviews" head. */
export const RATING_CELL =
  /^(?:[1-5]\s*(?:★|☆|stars?)|\d{1,3}\s?%|\d{1,6}|\d(?:[.,]\d+)?\s*(?:out of 5\s*)?(?:stars?\s*)?based on [\d,.]+ (?:reviews?|ratings?))$/i;

/** A star label of a rating histogram ("5 ★", "4 stars"). */
export const RATING_STAR = /^[1-5]\s*(?:★|☆|stars?)$/i;

/** The title of a product page's reviews box ("Reviews", "Customer Reviews:", "Ratings & Reviews"). */
export const REVIEWS_TITLE = /^(?:customer |product )?(?:reviews|ratings (?:&|and) reviews)\s*:?$/i;

/**
 * tooltip-text: a tooltip's text, shown while the pointer rests on a term ("Impedance" explained
 * beside a spec, a footnote shown as a bubble, a form field's hint), is a gloss on the page, not
 * its copy. Known by role="tooltip", a <tool-tip> element, or a class token that ends in
 * "tooltip" / "tool-tip", with or without a part name ("tooltip__content", "tooltip-text") or a
 * CSS module's hash ("selector_tooltip__XX4OM"). A token that goes on past it ("tooltip-toggle",
 * the term the reader hovers) is the content's own.
 */
export const TOOLTIP_CLASS = /^(?:[\w-]*?[-_])?tool-?tip(?:s|[-_]{1,2}(?:text|content|body|inner|bubble|note))?(?:__[a-z0-9]{4,6})?$/i;

/** Most text (characters) of a tooltip that goes: past it, the box is a section named oddly. */
export const TOOLTIP_MAX_TEXT = 400;

/**
 * disclaimer-fine-print: a box whose class or id names it a disclaimer is the fine print under a
 * page (a fund's risk statement, "Image simulated", "Products sold separately", "All prices incl.
 * VAT"), whatever else its class says ("richtext text cmp-richtext--disclaimer": the styling's
 * words, which read as content) and whatever its share of the main box. It stays when it holds
 * the page's <h1>, or DISCLAIMER_MAX_SHARE of the main box or more (a page that is its terms).
 */
export const DISCLAIMER_BOX = /(?:^|[^a-z])disclaimers?(?:$|[^a-z])/i;
export const DISCLAIMER_MAX_SHARE = 0.5;

/**
 * product-facts-modal (boilerplate.ts): class words that name a product's own facts — its
 * specifications, measurements or dimensions, size chart or guide, nutrition facts, ingredients.
 * A box so named that opens as a modal or pop-up ("specs-modal", "pipf-measurements-modal",
 * "modal-sizechart") is kept on a product page: shops draw the facts table there, and it is part
 * of what the page says about the product.
 */
export const PRODUCT_FACTS_BOX =
  /(?:^|[^a-z])(?:specs?|specifications?|measurements?|dimensions?|size-?chart|size-?guide|nutrition|ingredients?)(?:$|[^a-z])/i;
