/**
 * Writes addressed by a path parameter (a product's prices, a discount code's campaign) and actions
 * that take one object (customer details, partner signup, the age group code).
 */
import { errorResponse, jsonResponse, type SimResponse } from './http-io.js';
import type { RouteMatch } from './router.js';
import type { Item } from './state-store.js';
import { isObject, rejected, type ItemProblem } from './validation.js';
import { outcome, type WriteContext, type WriteOutcome } from './write-outcome.js';

function refused(problem: ItemProblem): WriteOutcome {
  const status = problem.code === 'NOT_FOUND' ? 404 : 422;
  return outcome(errorResponse(status, problem.code, problem.message), 0, 1);
}

function badShape(message: string): WriteOutcome {
  return outcome(errorResponse(400, 'VALIDATION_FAILED', message), 0, 1);
}

function notFound(message: string): ItemProblem {
  return { code: 'NOT_FOUND', message };
}

function patchPrices(productId: string, body: Item, ctx: WriteContext): WriteOutcome {
  if (!Array.isArray(body.prices)) {
    return badShape('the body must be {"prices": [{"amount": "1299.00", "currency": "NOK"}]}');
  }
  const problem = ctx.rules.prices(body.prices);
  if (problem) return refused(problem);
  if (!ctx.state.has('products', productId)) {
    return refused(notFound(`no product "${productId}"; put the product before its prices`));
  }
  const stored = { productId, prices: body.prices };
  ctx.state.put('prices', productId, stored);
  return outcome(jsonResponse(200, stored), 1);
}

function putDiscountCampaign(code: string, body: Item, ctx: WriteContext): WriteOutcome {
  const campaign = body.campaignExternalId;
  if (typeof campaign !== 'string' || campaign.length === 0) {
    return refused({
      code: 'VALIDATION_FAILED',
      message: 'campaignExternalId must be a non-empty string',
    });
  }
  const existing = ctx.state.get('discountCodes', code);
  if (!existing) return refused(notFound(`no discount code "${code}"`));
  const updated = { ...existing, campaignExternalId: campaign };
  ctx.state.put('discountCodes', code, updated);
  return outcome(jsonResponse(200, updated), 1);
}

function keepAction(resource: 'customers' | 'partners', body: Item, ctx: WriteContext) {
  const key = typeof body.externalId === 'string' && body.externalId ? body.externalId : undefined;
  const id = key ?? ctx.state.nextId(resource === 'customers' ? 'customer' : 'partner');
  const stored = { id, ...body };
  ctx.state.put(resource, id, stored);
  return outcome(jsonResponse(201, stored), 1);
}

export function executeEntityWrite(match: RouteMatch, body: unknown, ctx: WriteContext) {
  if (!isObject(body)) return badShape('the body must be a JSON object');
  for (const value of Object.values(match.pathParams)) {
    if (ctx.rejectKeys.has(value)) return refused(rejected(value));
  }
  if (typeof body.externalId === 'string' && ctx.rejectKeys.has(body.externalId)) {
    return refused(rejected(body.externalId));
  }
  const { operation, pathParams } = match;
  switch (operation.id) {
    case 'products.prices.patch':
      return patchPrices(pathParams.productId!, body, ctx);
    case 'discountCodes.campaign.put':
      return putDiscountCampaign(pathParams.discountCodeExternalId!, body, ctx);
    case 'customers.details.post':
      return keepAction('customers', body, ctx);
    case 'partner.signup.post':
      return keepAction('partners', body, ctx);
    case 'ageGroupCode.put':
      ctx.state.ageGroupCode = body;
      return outcome(jsonResponse(200, body), 1);
    default:
      return outcome(unknownWrite(operation.id), 0);
  }
}

/** A catalog write the simulator has no handler for: a gap in the simulator, said plainly. */
function unknownWrite(operationId: string): SimResponse {
  return errorResponse(500, 'INTERNAL', `the simulator does not implement ${operationId}`);
}
