import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { json } from 'express';
import { AllExceptionsFilter, AppConfig, createValidationPipe, rejectDeeplyNestedJson } from '@app/common';

/** Everything the HTTP app needs beyond its modules; shared by main.ts and the test app factory. */
export function configureApi(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.set('query parser', 'extended');
  express.use(json({ limit: config.bodyLimit, type: ['application/json', 'application/*+json'], verify: rejectDeeplyNestedJson() }));
  // Browser-facing addresses live outside /v1: SAML sign-in (start, ACS, SP metadata) and PDF downloads.
  app.setGlobalPrefix('v1', { exclude: ['health', 'docs', 'openapi.json', 'sso/saml/{*path}', 'pdf/{*path}'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Docs Platform API')
      .setDescription(
        'GitBook API v1 compatible. Lists use keyset pagination: `limit` defaults to 50 and may not exceed 1000; ' +
          'pass `next.page` back as `page`. Errors are `{"error": {"code", "message"}}`.',
      )
      .setVersion('1')
      .addServer(config.publicUrl)
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', useGlobalPrefix: false });
}
