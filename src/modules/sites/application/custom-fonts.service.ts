import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest, PreconditionFailedError, newId } from '@app/common';
import { atLeast } from '../../access/domain/roles';
import { AccessService } from '../../access/application/access.service';
import { StorageUploadsService } from '../../content/application/storage-uploads.service';
import { User } from '../../identity/domain/user';
import { FontFaceFile, assertFontFamily, newFontFaces, updatedFontFaces } from '../domain/custom-font';
import { CustomFontOrm } from '../infrastructure/custom-font.orm';
import { CustomFontsRepository } from '../infrastructure/custom-fonts.repository';

export interface FontView {
  font: CustomFontOrm;
  /** Content type of each face's file, by storage key (woff or woff2). */
  types: Map<string, string>;
  canEdit: boolean;
}

/**
 * An organization's own fonts for its sites' customization: a family and one file per weight,
 * each uploaded first through generateStorageUploadURL (`customization_font`) by this
 * organization. Members read them; members with `create` manage them.
 */
@Injectable()
export class CustomFontsService {
  constructor(
    private readonly repository: CustomFontsRepository,
    private readonly uploads: StorageUploadsService,
    private readonly access: AccessService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, request: PageRequest): Promise<Page<FontView>> {
    const canEdit = await this.canEdit(caller, organizationId);
    const page = await this.repository.list(organizationId, request);
    const types = await this.uploads.uploaded(organizationId, page.items.flatMap((font) => font.faces.map((face) => face.storageKey)), 'customization_font');
    return { ...page, items: page.items.map((font) => ({ font, types, canEdit })) };
  }

  async get(caller: User, organizationId: string, fontId: string): Promise<FontView> {
    const canEdit = await this.canEdit(caller, organizationId);
    return this.view(await this.found(organizationId, fontId), canEdit);
  }

  async create(caller: User, organizationId: string, input: { fontFamily?: unknown; fontFaces?: unknown }): Promise<FontView> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const faces = newFontFaces(input.fontFaces);
    await this.assertUploaded(organizationId, faces);
    const font = Object.assign(new CustomFontOrm(), { id: newId(), organizationId, fontFamily: assertFontFamily(input.fontFamily), faces, createdAt: this.clock.now() });
    await this.repository.insert(font);
    return this.view(font, true);
  }

  /** A new family name and/or faces: a key replaces a weight's file, null removes the weight. */
  async update(caller: User, organizationId: string, fontId: string, input: { fontFamily?: unknown; fontFaces?: unknown }): Promise<FontView> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const font = await this.found(organizationId, fontId);
    const fontFamily = input.fontFamily === undefined ? font.fontFamily : assertFontFamily(input.fontFamily);
    const faces = input.fontFaces === undefined ? font.faces : updatedFontFaces(font.faces, input.fontFaces);
    await this.assertUploaded(organizationId, faces.filter((face) => !font.faces.some((old) => old.storageKey === face.storageKey)));
    if (!(await this.repository.update(organizationId, font.id, { fontFamily, faces }))) throw NotFoundError.of('Font', fontId);
    return this.view(Object.assign(font, { fontFamily, faces }), true);
  }

  async delete(caller: User, organizationId: string, fontId: string): Promise<boolean> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    return this.repository.delete(organizationId, fontId);
  }

  /** Members with an organization role read fonts (guests do not); those with `create` may edit them. */
  private async canEdit(caller: User, organizationId: string): Promise<boolean> {
    const context = await this.access.requireOrgRole(caller, organizationId, 'read');
    return atLeast(context.orgRole ?? null, 'create');
  }

  private async found(organizationId: string, fontId: string): Promise<CustomFontOrm> {
    const font = await this.repository.find(organizationId, fontId);
    if (!font) throw NotFoundError.of('Font', fontId);
    return font;
  }

  /** Every new face names a font file this organization uploaded (412 otherwise: the key is not one of its uploads). */
  private async assertUploaded(organizationId: string, faces: FontFaceFile[]): Promise<void> {
    const uploaded = await this.uploads.uploaded(organizationId, faces.map((face) => face.storageKey), 'customization_font');
    const missing = faces.find((face) => !uploaded.has(face.storageKey));
    if (missing) throw new PreconditionFailedError(`fontFaces: weight ${missing.weight}: "${missing.storageKey.slice(0, 64)}" is not a font file uploaded for this organization`);
  }

  private async view(font: CustomFontOrm, canEdit: boolean): Promise<FontView> {
    return { font, types: await this.uploads.uploaded(font.organizationId, font.faces.map((face) => face.storageKey), 'customization_font'), canEdit };
  }
}
