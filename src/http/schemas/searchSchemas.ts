import { Type, type Static } from 'typebox';
import { maxClauses, maxTerms, minPrefixLength } from '../../domain/search/parseSearchQuery.js';
import { searchPieceKinds } from '../../domain/search/searchDocumentsOf.js';
import { snippetMaxChars } from '../../domain/search/searchHitsOf.js';
import { CallListItemSchema } from './callSchemas.js';
import { Uuid } from './commonSchemas.js';

export const defaultSearchLimit = 20;
/** Hits shown per call at most. */
export const hitsPerCall = 3;

export const SearchQueryStringSchema = Type.Object({
  q: Type.String({
    minLength: 1, maxLength: 500,
    description: `Words (all must occur in the call, in any of its pieces), \`"a phrase"\` (its words next to each other within one piece) `
      + `and \`word*\` (a prefix of at least ${minPrefixLength} letters); matching ignores case and diacritics, without stemming. `
      + `Any other character is treated as a space (no operators). At most ${maxClauses} words or phrases, ${maxTerms} words in all.`,
  }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: defaultSearchLimit, description: 'Calls per page' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'The `nextCursor` of the previous page, with the same `q`' })),
});

export const SearchHitSchema = Type.Object({
  kind: Type.Enum(searchPieceKinds, { description: 'Where the match is: the call\'s title, its summary, an action item or a transcript segment' }),
  segmentId: Type.Optional(Type.String({ description: '`segment`: the transcript segment (`seg_NNNN`)' })),
  startSeconds: Type.Optional(Type.Number({ minimum: 0, description: '`segment`: where the segment starts in the recording, seconds' })),
  speakerDisplayName: Type.Optional(Type.String({ description: '`segment`: who speaks' })),
  actionItemId: Type.Optional({ ...Uuid, description: '`action`: the action item' }),
  snippet: Type.String({
    description: `The matching text (cut to about ${snippetMaxChars} characters around the first match, \`…\` where cut), HTML-escaped, `
      + 'every match inside `<mark>…</mark>`: safe to insert as HTML.',
  }),
});

export const SearchResultSchema = Type.Object({
  ...CallListItemSchema.properties,
  hitCount: Type.Integer({ minimum: 0, description: 'How many pieces of the call match (title, summary lines, action items, segments)' }),
  hits: Type.Array(SearchHitSchema, { maxItems: hitsPerCall, description: 'The best matching pieces: those matching more of the query first, then in reading order' }),
});
export type SearchResultItem = Static<typeof SearchResultSchema>;

export const SearchResultsSchema = Type.Object({
  items: Type.Array(SearchResultSchema),
  nextCursor: Type.Optional(Type.String({ description: 'Present when more results follow' })),
});
