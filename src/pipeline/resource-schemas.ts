/**
 * Resource schemas: the fields Ferry assumes for each resource (docs/PIPELINES.md, Entities).
 * Every payload is checked against its resource's schema before it is planned, so a record that
 * the platform would refuse is rejected here, with its line. Objects are strict: a field the
 * resource does not have is a mistake in the pipeline, found when the pipeline is loaded.
 */
import { z } from 'zod';

const key = z.string().min(1, 'expected a non-empty key');
const text = z.string();
/** A decimal string, never a float ("1299.00", "-5"). */
export const decimalString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string such as "1299.00"');

const product = z.strictObject({
  externalId: key,
  name: z.string().min(1),
  description: text.optional(),
  vendor: text,
  handle: z.string().min(1),
  gtin: text.optional(),
  active: z.boolean(),
  categoryExternalIds: z.array(key),
  url: text.optional(),
  requiredDimensionId: text.optional(),
});

const category = z.strictObject({
  externalId: key,
  name: z.string().min(1),
  parentExternalId: key.optional(),
  sortIndex: z.number().int(),
});

const campaign = z.strictObject({
  externalId: key,
  name: z.string().min(1),
  adjustmentType: z.string().min(1),
  value: decimalString,
  startsAt: text.optional(),
  endsAt: text.optional(),
});

const store = z.strictObject({
  externalId: key,
  name: z.string().min(1),
  address: z.strictObject({ street: text, postalCode: text, city: text, country: text }),
  phone: text.optional(),
  email: text.optional(),
  url: text.optional(),
  active: z.boolean(),
});

const user = z.strictObject({
  externalId: key,
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.string().min(1),
  role: z.string().min(1),
  storeExternalIds: z.array(key),
  active: z.boolean(),
});

const ageGroup = z.strictObject({
  externalId: key,
  name: z.string().min(1),
  minAge: z.number().int(),
  maxAge: z.number().int(),
  sortIndex: z.number().int(),
});

/**
 * The body of products.prices.patch (docs/PIPELINES.md, Entities: amount a decimal string, never a
 * float).
 */
const prices = z.strictObject({
  prices: z
    .array(
      z.strictObject({
        amount: decimalString,
        currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as NOK'),
      }),
    )
    .min(1),
});

export type ResourceSchema = z.ZodObject<z.ZodRawShape>;

export const RESOURCE_SCHEMAS: Readonly<Record<string, ResourceSchema>> = {
  products: product,
  categories: category,
  campaigns: campaign,
  stores: store,
  users: user,
  ageGroups: ageGroup,
  prices,
};

/** The schema of a resource with its key field named as the binding names it. */
export function schemaFor(resource: string, keyField = 'externalId'): ResourceSchema | undefined {
  const schema = RESOURCE_SCHEMAS[resource];
  if (!schema || keyField === 'externalId' || !('externalId' in schema.shape)) return schema;
  const rest = Object.entries(schema.shape).filter(([name]) => name !== 'externalId');
  return z.strictObject({ ...Object.fromEntries(rest), [keyField]: key });
}
