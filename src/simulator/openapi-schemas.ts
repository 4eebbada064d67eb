/**
 * Component schemas of the generated OpenAPI description: the resource fields docs/PIPELINES.md
 * (Entities) lists (the spec names fields without saying where they belong), the price and error
 * shapes, the 207 per-item results and the pages of the read operations.
 */
type Schema = Record<string, unknown>;

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const strings = { type: 'array', items: str };
const dateTime = { type: 'string', format: 'date-time' };
const decimal = {
  type: 'string',
  pattern: '^\\d+(\\.\\d+)?$',
  description: 'A non-negative decimal string such as "1299.00"; never a JSON number.',
  examples: ['1299.00'],
};
const key = { type: 'string', minLength: 1, description: "The source system's key." };

function object(properties: Schema, required: string[], extra: Schema = {}): Schema {
  return { type: 'object', properties, required, ...extra };
}

const RESOURCES: Record<string, { properties: Schema; required: string[] }> = {
  Product: {
    properties: {
      externalId: key,
      name: str,
      description: str,
      vendor: str,
      handle: str,
      gtin: str,
      active: bool,
      categoryExternalIds: strings,
      url: { type: 'string', format: 'uri' },
      requiredDimensionId: str,
      prices: { type: 'array', items: { $ref: '#/components/schemas/Price' } },
    },
    required: ['externalId', 'name', 'vendor', 'handle', 'active', 'categoryExternalIds'],
  },
  Category: {
    properties: { externalId: key, name: str, parentExternalId: str, sortIndex: int },
    required: ['externalId', 'name', 'sortIndex'],
  },
  Campaign: {
    properties: {
      externalId: key,
      name: str,
      adjustmentType: str,
      value: decimal,
      startsAt: dateTime,
      endsAt: dateTime,
    },
    required: ['externalId', 'name', 'adjustmentType', 'value'],
  },
  Store: {
    properties: {
      externalId: key,
      name: str,
      address: object({ street: str, postalCode: str, city: str, country: str }, [
        'street',
        'postalCode',
        'city',
        'country',
      ]),
      phone: str,
      email: { type: 'string', format: 'email', pattern: '@' },
      url: { type: 'string', format: 'uri' },
      active: bool,
    },
    required: ['externalId', 'name', 'address', 'active'],
  },
  User: {
    properties: {
      externalId: key,
      firstName: str,
      lastName: str,
      email: { type: 'string', format: 'email', pattern: '@' },
      role: { type: 'string', enum: ['admin', 'manager', 'cashier'] },
      storeExternalIds: strings,
      active: bool,
    },
    required: [
      'externalId',
      'firstName',
      'lastName',
      'email',
      'role',
      'storeExternalIds',
      'active',
    ],
  },
  AgeGroup: {
    properties: { externalId: key, name: str, minAge: int, maxAge: int, sortIndex: int },
    required: ['externalId', 'name', 'minAge', 'maxAge', 'sortIndex'],
  },
  DiscountCode: {
    properties: { externalId: key, code: str, campaignExternalId: str },
    required: ['externalId'],
  },
};

/** Resource state name -> its schema name. */
export const SCHEMA_OF: Record<string, string> = {
  products: 'Product',
  categories: 'Category',
  campaigns: 'Campaign',
  stores: 'Store',
  users: 'User',
  ageGroups: 'AgeGroup',
  discountCodes: 'DiscountCode',
  orders: 'Order',
  zReports: 'ZReport',
  revenue: 'RevenueDay',
  microshops: 'Microshop',
};

export const ERROR_CODES = [
  'UNAUTHORIZED',
  'NOT_FOUND',
  'REQUEST_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'VALIDATION_FAILED',
  'REJECTED',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL',
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export function componentSchemas(): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const [name, { properties, required }] of Object.entries(RESOURCES)) {
    schemas[name] = object(properties, required);
    // PATCH items: any subset of the fields, with the key.
    schemas[`${name}Patch`] = object(properties, ['externalId']);
  }
  const errorDetail = object({ code: { type: 'string', enum: ERROR_CODES }, message: str }, [
    'code',
    'message',
  ]);
  Object.assign(schemas, {
    Price: object({ amount: decimal, currency: { type: 'string', examples: ['NOK'] } }, [
      'amount',
      'currency',
    ]),
    ProductPrices: object({ prices: { type: 'array', items: ref('Price') } }, ['prices']),
    DiscountCodeCampaign: object({ campaignExternalId: key }, ['campaignExternalId']),
    Key: object({ externalId: key }, ['externalId']),
    ErrorDetail: errorDetail,
    Error: object({ error: ref('ErrorDetail') }, ['error']),
    ItemResult: object(
      {
        externalId: { type: ['string', 'null'] },
        status: int,
        error: ref('ErrorDetail'),
        index: { type: 'integer', description: 'Position in the body when externalId is null.' },
      },
      ['externalId', 'status'],
    ),
    BatchResults: object({ results: { type: 'array', items: ref('ItemResult') } }, ['results']),
    Order: object(
      {
        id: {
          type: 'string',
          pattern: '^\\d{10}$',
          description: 'Grows with every new order; zero-padded, so string order is numeric order.',
        },
        externalId: str,
        createdAt: dateTime,
        storeExternalId: str,
        customer: object({ externalId: str, name: str, email: str }, ['externalId', 'name']),
        status: { type: 'string', enum: ['placed', 'paid', 'shipped', 'delivered', 'cancelled'] },
        currency: str,
        total: decimal,
        lines: {
          type: 'array',
          items: object(
            { productExternalId: str, quantity: int, unitPrice: decimal, lineTotal: decimal },
            ['productExternalId', 'quantity', 'unitPrice', 'lineTotal'],
          ),
        },
      },
      [
        'id',
        'externalId',
        'createdAt',
        'storeExternalId',
        'customer',
        'status',
        'currency',
        'total',
        'lines',
      ],
    ),
    ZReport: object(
      {
        externalId: str,
        date: { type: 'string', format: 'date' },
        storeExternalId: str,
        receipts: int,
        grossSales: decimal,
        vat: decimal,
        netSales: decimal,
        currency: str,
      },
      ['externalId', 'date', 'grossSales', 'currency'],
    ),
    RevenueDay: object(
      { date: { type: 'string', format: 'date' }, orders: int, revenue: decimal, currency: str },
      ['date', 'revenue', 'currency'],
    ),
    Microshop: object(
      {
        externalId: str,
        name: str,
        handle: str,
        url: { type: 'string', format: 'uri' },
        active: bool,
      },
      ['externalId', 'name'],
    ),
    AgeGroupCode: object({ code: str, ageGroupExternalIds: strings, updatedAt: str }, [], {
      additionalProperties: true,
    }),
    CustomerDetails: object({ externalId: str, email: str }, [], { additionalProperties: true }),
    PartnerSignup: object({ name: str, email: str }, [], { additionalProperties: true }),
  });
  return schemas;
}
