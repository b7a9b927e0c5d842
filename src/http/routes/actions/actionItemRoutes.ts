import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../createServices.js';
import { updateActionItemStatus } from '../../../domain/actions/updateActionItemStatus.js';
import { auditActorOf } from '../../accessAudit.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { ActionItemListQuerySchema, ActionItemPatchSchema, ActionItemSchema } from '../../schemas/actionItemSchemas.js';
import { errorResponses, IdParams } from '../../schemas/commonSchemas.js';
import { toActionItem } from './actionItemPresenter.js';

/** GET /api/actions and PATCH /api/actions/{id}. */
export const actionItemRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/actions', {
    schema: {
      summary: 'All action items of the user: PENDING first, newest first within each group (not paginated)',
      querystring: ActionItemListQuerySchema,
      response: { 200: Type.Array(ActionItemSchema), ...errorResponses(400, 401, 429) },
    },
  }, async (request) => (await services.actionItems.listForUser(currentUser(request).id, request.query.status)).map(toActionItem));

  app.patch('/actions/:id', {
    schema: {
      summary: 'Mark an action item done or pending again',
      params: IdParams,
      body: ActionItemPatchSchema,
      response: { 200: ActionItemSchema, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const item = await updateActionItemStatus({ ...services, database: services.database.sql }, currentUser(request).id, request.params.id.toLowerCase(), request.body.status);
    if (!item) throw new ApiError('action_item_not_found');
    services.accessAudit.record({ ...auditActorOf(request), action: 'action_item.update', callId: item.callId, target: item.id, detail: { status: item.status } });
    return toActionItem(item);
  });
};
