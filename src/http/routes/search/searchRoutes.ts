import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../createServices.js';
import { isSearchQuery, parseSearchQuery } from '../../../domain/search/parseSearchQuery.js';
import { SearchCursor } from '../../../domain/search/SearchCursor.js';
import { searchHitsOf } from '../../../domain/search/searchHitsOf.js';
import { rankedMatchesCap, SearchIndex } from '../../../domain/search/SearchIndex.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { errorResponses } from '../../schemas/commonSchemas.js';
import { defaultSearchLimit, hitsPerCall, SearchQueryStringSchema, SearchResultsSchema } from '../../schemas/searchSchemas.js';
import { toCallListItem } from '../calls/callPresenters.js';

/** `GET /api/search`: full-text search over the caller's completed calls. */
export const searchRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const index = new SearchIndex(services.database.sql);
  const cursors = new SearchCursor(await services.settings.secret('search_cursor_signing_key', services.clock()));

  app.get('/search', {
    schema: {
      summary: 'Search the caller\'s calls',
      description: 'Full-text search over the titles, summaries, action items and transcripts of the caller\'s COMPLETED calls. '
        + `The newest ${rankedMatchesCap.toLocaleString('en')} matching calls come best match first (title words weigh most, transcript words least; `
        + 'ties newest first), any older matches after them, newest first. '
        + `Each call carries up to ${hitsPerCall} hits: the pieces that matched, with highlighted snippets. Cursors are signed and bound to the user and the query.`,
      querystring: SearchQueryStringSchema,
      response: { 200: SearchResultsSchema, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const query = parseSearchQuery(request.query.q);
    if (!isSearchQuery(query)) throw new ApiError('validation_failed', query.problem, { fields: [{ path: 'querystring/q', message: query.problem }] });
    const limit = request.query.limit ?? defaultSearchLimit;
    let offset = 0;
    if (request.query.cursor !== undefined) {
      const position = cursors.decode(user.id, query.key, request.query.cursor);
      if (position === undefined) throw new ApiError('invalid_cursor');
      offset = position;
    }
    // One extra result tells whether another page exists without a count.
    const results = await index.search(user.id, query, { offset, limit: limit + 1 });
    return {
      items: results.slice(0, limit).map(({ call, pieces }) => ({ ...toCallListItem(call), ...searchHitsOf(pieces, query, hitsPerCall) })),
      ...(results.length > limit ? { nextCursor: cursors.encode(user.id, query.key, offset + limit) } : {}),
    };
  });
};
